import type { InsightType } from "../modules/conversations/conversations.schemas.ts";
import type { ExperienceKind } from "../modules/experiences/experiences.schemas.ts";
import type { TopicKind } from "../analysis/types.ts";
import type { DetectedTracker, TrackerDefinition } from "../analysis/trackers.ts";

/** Everything the summary page shows, as plain data: built by the summary-page module, rendered here. */

export interface PageBranding {
  /** Each colour already validated as #RRGGBB. */
  background: string | null;
  topicsFilter: string | null;
  insightsFilter: string | null;
  /** Already validated: letters, digits, spaces, hyphens. */
  fontFamily: string | null;
  logo: string | null;
  favicon: string | null;
}

export interface PageAttendee {
  id: string;
  name: string;
  avatarUrl: string | null;
}

export interface PageMessage {
  id: string;
  text: string;
  speakerId: string | null;
  speakerName: string | null;
  /** Seconds from the conversation start, when known. */
  offset: number | null;
  /** Seconds from the conversation start to the line's end, when known. */
  endOffset: number | null;
  startTime: string | null;
  hidden: boolean;
}

export interface PageTopic {
  id: string;
  /** "chapter": a part of the meeting, in order; "phrase": a key phrase and the lines that mention it. */
  kind: TopicKind;
  text: string;
  messageIds: string[];
  /** A chapter's start, in seconds from the conversation start, when its first line has a time. */
  offset: number | null;
  /** A chapter's share of the meeting's words (0..1); null for a phrase. */
  share: number | null;
}

export interface PageInsight {
  id: string;
  type: InsightType;
  text: string;
  messageIds: string[];
  /** The member who said it, by its current name. */
  speakerId: string | null;
  speakerName: string | null;
  /** The member it is for (current name), or only a name when that person is not a member. */
  assigneeId: string | null;
  assigneeName: string | null;
  dueBy: string | null;
}

export interface PageSummaryItem {
  text: string;
  messageIds: string[];
}

export interface PageView {
  kind: ExperienceKind;
  title: string;
  /** The conversation's language as a BCP 47 tag, when known: the page's `lang` (`pageLanguage`). */
  language: string | null;
  startTime: string;
  endTime: string;
  /** Whether startTime is the meeting's (given or from its lines' times), not only when it was imported. */
  dated: boolean;
  attendees: PageAttendee[];
  /** What the conversation decided, in order: shown first in the summary. */
  decisions: PageSummaryItem[];
  summary: PageSummaryItem[];
  /** Why there is no summary, topics or insights: the analysis does not read the conversation's language. */
  analysisNotice: string | null;
  topics: PageTopic[];
  insights: PageInsight[];
  /** Insights a viewer dismissed, listed on editable links to be restored; never shown read-only or exported. */
  dismissedInsights: PageInsight[];
  messages: PageMessage[];
  /** The app's trackers, matched against the lines on the analytics page (empty on other kinds). */
  trackers: TrackerDefinition[];
  /** Those of them mentioned in the visible lines, matched off the event loop when the view is made. */
  trackerMatches: DetectedTracker[];
  /** The media file of a video or audio page, already checked as http(s). */
  mediaUrl: string | null;
  /**
   * The conversation's own recordings when the page plays them (its link names no media), first to last: the
   * player plays them as one timeline. `mediaUrl` is the first's.
   */
  recordings: PageRecording[];
  branding: PageBranding;
  readOnly: boolean;
  hideShareButton: boolean;
  /** The conversation is being streamed (docs/LIVE.md): the lines so far, the analysis when it ends. */
  live: boolean;
}

/** Per-response values that are not part of the content. */
export interface PageContext {
  /** The CSP nonce of the page's one <style> element. */
  styleNonce: string;
  /** Asset URLs relative to the page (so a path prefix in the public URL keeps working). */
  scriptUrl: string | null;
  stylesheetUrl: string | null;
  /** The link's web font, served from this origin; null when there is none (a system font is used). */
  fontStylesheetUrl: string | null;
  /** The link's own last path segment (its token), for the .md and .json alternates. */
  selfPath: string;
  /** Show the transcript as stored (?text=verbatim) instead of cleaned for reading (reading-text.ts). */
  verbatim: boolean;
  /** The part of a long transcript to show (?part=, 1-based; transcript-parts.ts); null for the first. */
  part: number | null;
}

/** What the transcript is rendered from besides the view: its text mode and part, and the link's address. */
export type TranscriptContext = Pick<PageContext, "selfPath" | "verbatim" | "part">;

export const INSIGHT_GROUPS: { type: InsightType; label: string; chip: string; anchor: string }[] = [
  { type: "action_item", label: "Action items", chip: "Action items", anchor: "action-items" },
  { type: "follow_up", label: "Follow-ups", chip: "Follow-ups", anchor: "follow-ups" },
  { type: "question", label: "Questions", chip: "Questions", anchor: "questions" },
];

/** Why the summary is empty: the meeting is still being streamed, its language, or nothing was found. */
export function noSummary(view: Pick<PageView, "live" | "analysisNotice">): string {
  if (view.live) return "The summary comes when the meeting ends.";
  return view.analysisNotice ?? "No summary was found for this conversation.";
}

/** How many insights of a type show before "Show all". */
export const TOP_INSIGHTS = 5;

/**
 * The page's `lang`: the conversation's language, which is most of what the page holds, when it is a valid
 * BCP 47 tag; else English, the language of the page's own words.
 */
export function pageLanguage(view: Pick<PageView, "language">): string {
  if (view.language === null) return "en";
  try {
    return Intl.getCanonicalLocales(view.language)[0] ?? "en";
  } catch {
    return "en";
  }
}

/** 0:42, 12:05 or 1:02:03. */
export function formatOffset(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** A share of the meeting: "42%", or "<1%" for a sliver. */
export function formatShare(share: number): string {
  const percent = Math.round(share * 100);
  return percent < 1 ? "<1%" : `${percent}%`;
}

/** "1 h 5 min", "12 min", "40 s". */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `${total} s`;
  const h = Math.floor(total / 3600);
  const m = Math.round((total % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

/** The header's facts as text (Markdown, plain text): the start when dated, the length when known. */
export function whenLine(view: Pick<PageView, "startTime" | "endTime" | "dated">): string | null {
  const duration = knownDuration(view);
  const facts = [
    ...(view.dated ? [view.startTime] : []),
    ...(duration !== null ? [formatDuration(duration)] : []),
  ];
  return facts.length > 0 ? facts.join(" · ") : null;
}

/** The meeting's length in whole seconds for the header, or null when its times do not give one. */
export function knownDuration(view: Pick<PageView, "startTime" | "endTime">): number | null {
  const seconds = Math.round(durationSeconds(view));
  return seconds >= 1 ? seconds : null;
}

export function durationSeconds(view: Pick<PageView, "startTime" | "endTime">): number {
  const ms = Date.parse(view.endTime) - Date.parse(view.startTime);
  return Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0;
}

/**
 * The view without hidden lines, as read-only links, JSON and Markdown show it. Analysis made before a
 * line was hidden may quote it, so decisions, summary items and insights that rest only on hidden lines go too.
 */
export function withoutHiddenLines(view: PageView): PageView {
  const hidden = new Set(view.messages.filter((m) => m.hidden).map((m) => m.id));
  if (hidden.size === 0) return view;
  const restsOnHidden = (ids: string[]) => ids.length > 0 && ids.every((id) => hidden.has(id));
  return {
    ...view,
    messages: view.messages.filter((m) => !m.hidden),
    decisions: view.decisions.filter((item) => !restsOnHidden(item.messageIds)),
    summary: view.summary.filter((item) => !restsOnHidden(item.messageIds)),
    insights: view.insights.filter((insight) => !restsOnHidden(insight.messageIds)),
    topics: view.topics.map((topic) => ({
      ...topic,
      messageIds: topic.messageIds.filter((id) => !hidden.has(id)),
    })),
  };
}

/** One of the recordings a page plays one after another: where it starts in the transcript's time, in seconds. */
export interface PageRecording {
  url: string;
  offset: number;
  /** Its length in seconds, when probing found it. */
  duration: number | null;
}
