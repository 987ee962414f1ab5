import { Value } from "typebox/value";
import { invalid } from "../../errors.ts";
import type { ProbedMedia } from "../../media/ffmpeg.ts";
import { ChannelMetadata, type MediaFileQuery } from "./media.schemas.ts";

/** What a submission asked of recognition, as kept with the media (JSON in `media.options`). */
export interface MediaOptions {
  languageCode: string | null;
  vocabulary: string[];
  /** Speaker diarization, with the number of speakers when the caller knew it; null when not asked. */
  diarization: { speakerCount: number | null } | null;
  /** One speaker per listed channel (1-based); empty: every channel mixed into one. */
  /** `unnamed` when channelMetadata gave the channel's speaker neither a name nor an e-mail ("Channel N"). */
  channels: { channel: number; name: string; email: string | null; unnamed?: true }[];
}

/** Every channel metadata entry must name a channel the file has; throws invalid (or `problem`) if not. */
export function checkChannels(
  options: MediaOptions,
  probed: ProbedMedia,
  problem: (message: string) => Error = (message) => invalid(message),
): void {
  for (const [index, entry] of options.channels.entries()) {
    if (entry.channel > probed.channels) {
      throw problem(
        `channelMetadata[${index}].channel is ${entry.channel} but the audio has ${probed.channels} channel${probed.channels === 1 ? "" : "s"}`,
      );
    }
  }
}

/** The options of a URL submission's body, checked; throws invalid naming the field. */
export function optionsOf(body: {
  languageCode?: string | undefined;
  customVocabulary?: string[] | undefined;
  enableSpeakerDiarization?: boolean | undefined;
  diarizationSpeakerCount?: number | undefined;
  channelMetadata?: ChannelMetadata | undefined;
}): MediaOptions {
  const channels = (body.channelMetadata ?? []).map((entry, index) => ({
    channel: entry.channel,
    name: entry.speaker.name?.trim() || entry.speaker.email?.trim() || `Channel ${entry.channel}`,
    email: entry.speaker.email?.trim() || null,
    unnamed: !entry.speaker.name?.trim() && !entry.speaker.email?.trim(),
    index,
  }));
  const seen = new Set<number>();
  for (const entry of channels) {
    if (seen.has(entry.channel)) {
      throw invalid(`channelMetadata[${entry.index}].channel ${entry.channel} is listed twice`);
    }
    seen.add(entry.channel);
  }
  if (body.diarizationSpeakerCount !== undefined && body.enableSpeakerDiarization !== true) {
    throw invalid("diarizationSpeakerCount needs enableSpeakerDiarization=true");
  }
  return {
    languageCode: body.languageCode ?? null,
    vocabulary: body.customVocabulary ?? [],
    diarization:
      body.enableSpeakerDiarization === true ? { speakerCount: body.diarizationSpeakerCount ?? null } : null,
    channels: channels
      .sort((a, b) => a.channel - b.channel)
      .map(({ channel, name, email, unnamed }) => ({ channel, name, email, ...(unnamed && { unnamed }) })),
  };
}

/** The options of an upload's query: lists come repeated or as JSON text. Throws invalid naming the field. */
export function optionsOfQuery(query: MediaFileQuery): MediaOptions {
  let channelMetadata: ChannelMetadata | undefined;
  if (query.channelMetadata !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(query.channelMetadata);
    } catch {
      throw invalid('query.channelMetadata must be JSON: [{"channel":1,"speaker":{"name":"…"}}]');
    }
    if (!Value.Check(ChannelMetadata, parsed)) {
      const first = Value.Errors(ChannelMetadata, parsed)[0];
      throw invalid(
        `query.channelMetadata${first?.instancePath.replaceAll("/", ".") ?? ""} ${first?.message ?? "is invalid"}`,
      );
    }
    channelMetadata = parsed;
  }
  return optionsOf({
    languageCode: query.languageCode,
    customVocabulary: vocabularyOf(query.customVocabulary),
    enableSpeakerDiarization: query.enableSpeakerDiarization,
    diarizationSpeakerCount: query.diarizationSpeakerCount,
    channelMetadata,
  });
}

function vocabularyOf(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const entries = Array.isArray(value) ? value : [value];
  const words = entries.flatMap((entry) => {
    const text = entry.trim();
    if (!text.startsWith("[")) return [text];
    try {
      const parsed = JSON.parse(text) as unknown;
      if (Array.isArray(parsed) && parsed.every((word) => typeof word === "string")) return parsed;
    } catch {
      // Not JSON after all: the entry is one phrase that starts with "[".
    }
    return [text];
  });
  const cleaned = words.map((word) => word.trim()).filter((word) => word !== "");
  if (cleaned.length > 500) throw invalid("query.customVocabulary must have at most 500 entries");
  const long = cleaned.findIndex((word) => word.length > 100);
  if (long >= 0) throw invalid(`query.customVocabulary[${long}] must be at most 100 characters`);
  return cleaned;
}
