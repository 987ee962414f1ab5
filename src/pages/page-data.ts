import {
  durationSeconds,
  formatOffset,
  formatShare,
  INSIGHT_GROUPS,
  noSummary,
  whenLine,
  withoutHiddenLines,
  type PageTopic,
  type PageView,
} from "./view-model.ts";

/** The page's content as JSON: what a read-only viewer sees, hidden lines left out. */
export function pageToJson(fullView: PageView) {
  const view = withoutHiddenLines(fullView);
  const visible = view.messages;
  const insightsOf = (type: string) =>
    view.insights
      .filter((i) => i.type === type)
      .map((i) => ({
        id: i.id,
        text: i.text,
        messageIds: i.messageIds,
        from:
          i.speakerName === null
            ? null
            : { ...(i.speakerId !== null && { id: i.speakerId }), name: i.speakerName },
        ...(i.assigneeName !== null && {
          assignee: { ...(i.assigneeId !== null && { id: i.assigneeId }), name: i.assigneeName },
        }),
        ...(i.dueBy !== null && { dueBy: i.dueBy }),
      }));
  return {
    name: view.title,
    kind: view.kind,
    startTime: view.startTime,
    endTime: view.endTime,
    duration: durationSeconds(view),
    ...(view.live && { live: true }),
    ...(view.mediaUrl !== null && { mediaUrl: view.mediaUrl }),
    attendees: view.attendees.map((a) => ({ id: a.id, name: a.name })),
    decisions: view.decisions.map((d) => ({ text: d.text, messageIds: d.messageIds })),
    summary: view.summary.map((s) => ({ text: s.text, messageIds: s.messageIds })),
    ...(view.analysisNotice !== null && { analysisNotice: view.analysisNotice }),
    topics: view.topics.map((t) => ({
      id: t.id,
      kind: t.kind,
      text: t.text,
      messageIds: t.messageIds,
      ...(t.kind === "chapter" && { timeOffset: t.offset, share: t.share }),
    })),
    insights: {
      actionItems: insightsOf("action_item"),
      followUps: insightsOf("follow_up"),
      questions: insightsOf("question"),
    },
    messages: visible.map((m) => ({
      id: m.id,
      text: m.text,
      from: m.speakerId === null ? null : { id: m.speakerId, name: m.speakerName },
      startTime: m.startTime,
      timeOffset: m.offset,
    })),
  };
}

/** Escapes Markdown's inline syntax so user text stays text (no links, images or HTML). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+\-!|~]/g, (char) => `\\${char}`).replace(/\r?\n/g, " ");
}

/** " (12:05, 23% of the meeting)" after a chapter's title; nothing after a key phrase. */
function chapterDetails(topic: PageTopic): string {
  if (topic.kind !== "chapter") return "";
  const details = [
    ...(topic.offset !== null ? [formatOffset(topic.offset)] : []),
    ...(topic.share !== null ? [`${formatShare(topic.share)} of the meeting`] : []),
  ];
  return details.length > 0 ? ` (${escapeMarkdown(details.join(", "))})` : "";
}

/** The page's content as Markdown. */
export function pageToMarkdown(fullView: PageView): string {
  const view = withoutHiddenLines(fullView);
  const e = escapeMarkdown;
  const lines: string[] = [`# ${e(view.title)}`, ""];
  const when = whenLine(view);
  if (when !== null) lines.push(when, "");
  if (view.live) lines.push("**Live:** this meeting is being streamed; these are the lines so far.", "");
  if (view.attendees.length > 0)
    lines.push(`**Attendees:** ${view.attendees.map((a) => e(a.name)).join(", ")}`, "");
  lines.push("## Summary", "");
  if (view.decisions.length > 0)
    lines.push("### Decisions", "", ...view.decisions.map((d) => `- ${e(d.text)}`), "");
  if (view.summary.length === 0) lines.push(e(noSummary(view)), "");
  else lines.push(...view.summary.map((s) => e(s.text)), "");
  lines.push("## Insights", "");
  for (const group of INSIGHT_GROUPS) {
    const items = view.insights.filter((i) => i.type === group.type);
    lines.push(`### ${group.label}`, "");
    if (items.length === 0) lines.push(`No ${group.label.toLowerCase()} were found.`, "");
    else {
      lines.push(
        ...items.map((i) => {
          const who = [
            ...(i.speakerName !== null ? [`said by ${e(i.speakerName)}`] : []),
            ...(i.assigneeName !== null ? [`for ${e(i.assigneeName)}`] : []),
          ];
          return `- ${e(i.text)}${who.length > 0 ? ` (${who.join(", ")})` : ""}`;
        }),
        "",
      );
    }
  }
  lines.push("## Topics", "");
  if (view.topics.length === 0) lines.push("No topics were found.", "");
  else lines.push(...view.topics.map((t) => `- ${e(t.text)}${chapterDetails(t)}`), "");
  lines.push("## Transcript", "", transcriptToMarkdown(view));
  return lines.join("\n");
}

/** How the transcript is written in Markdown: with speakers and times (the defaults) or without. */
export interface TranscriptOptions {
  speakers?: boolean;
  timestamps?: boolean;
}

/** The visible lines as Markdown paragraphs: `**Speaker** [m:ss]: text`, as the page's Markdown ends. */
export function transcriptToMarkdown(
  view: Pick<PageView, "messages">,
  { speakers = true, timestamps = true }: TranscriptOptions = {},
): string {
  return view.messages
    .filter((m) => !m.hidden)
    .map((m) => {
      const time = timestamps && m.offset !== null ? `[${formatOffset(m.offset)}]` : "";
      const who = speakers ? `**${escapeMarkdown(m.speakerName ?? "Unknown speaker")}**` : "";
      const prefix = [who, time].filter(Boolean).join(" ");
      return `${prefix === "" ? "" : `${prefix}: `}${escapeMarkdown(m.text)}\n`;
    })
    .join("\n");
}
