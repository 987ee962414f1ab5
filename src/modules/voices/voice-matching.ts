import type { SpeakerTurn } from "../../media/engine.ts";

/** A profile as matching reads it: its reference embeddings and the model and length they were computed with. */
export interface ProfileVectors {
  id: string;
  name: string;
  email: string | null;
  model: string;
  dimension: number;
  references: Float32Array[];
}

/** One diarized speaker of a recording and the embedding of its clean speech. */
export interface SpeakerVector {
  speaker: number;
  vector: Float32Array;
}

/**
 * Raw cosine similarities in [-1, 1] (not `(1 + cos) / 2`): `accept` names the member, `suggest` only suggests the
 * profile, and the best profile of a speaker must be ahead of its second-best by `margin` (docs/VOICES.md).
 */
export interface MatchThresholds {
  accept: number;
  suggest: number;
  margin: number;
}

/** A speaker paired with a profile; `confident` when the score reached the accept threshold. */
export interface VoiceMatch {
  speaker: number;
  profile: ProfileVectors;
  score: number;
  confident: boolean;
}

/** A stretch of a recording, in milliseconds from its start. */
export interface Span {
  startMs: number;
  endMs: number;
}

/** The raw cosine similarity of two vectors of one length, in [-1, 1]; 0 when either is all zeros. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/**
 * The profiles each speaker is scored against in full: those whose centroids are nearest its voice
 * (docs/VOICES.md, Measured: with 10,000 profiles, shortlisting is what keeps matching within milliseconds).
 */
export const SHORTLIST_PER_SPEAKER = 16;

/** A profile as shortlisting reads it: one vector, the centroid of its references (centroidOf). */
export interface ProfileCentroid {
  id: string;
  centroid: Float32Array;
}

/**
 * A profile's centroid: the mean of its references of `dimension` values, each first scaled to unit length, itself
 * scaled to unit length; null when it has none (or only zero vectors).
 */
export function centroidOf(references: readonly Float32Array[], dimension: number): Float32Array | null {
  const sum = new Float32Array(dimension);
  let used = 0;
  for (const reference of references) {
    const norm = reference.length === dimension ? Math.sqrt(dot(reference, reference)) : 0;
    if (norm === 0) continue;
    for (let i = 0; i < dimension; i++) sum[i] = (sum[i] ?? 0) + (reference[i] ?? 0) / norm;
    used++;
  }
  const norm = Math.sqrt(dot(sum, sum));
  return used === 0 || norm === 0 ? null : sum.map((value) => value / norm);
}

/**
 * The ids of the profiles worth scoring for these speakers: each speaker's `perSpeaker` profiles whose centroid is
 * nearest (cosine), all of them when there are no more. One vector a profile instead of each of its references is
 * what keeps matching against thousands of profiles within milliseconds (docs/VOICES.md, Measured); a profile whose
 * references sit far apart can rank lower by its centroid than by its best reference, so `perSpeaker` is generous.
 */
export function shortlist(
  speakers: readonly SpeakerVector[],
  centroids: readonly ProfileCentroid[],
  perSpeaker: number,
): Set<string> {
  if (centroids.length <= perSpeaker) return new Set(centroids.map((profile) => profile.id));
  const chosen = new Set<string>();
  for (const { vector } of speakers) {
    const best: { id: string; score: number }[] = [];
    for (const { id, centroid } of centroids) {
      if (centroid.length !== vector.length) continue;
      const score = dot(vector, centroid);
      if (best.length === perSpeaker && score <= (best.at(-1)?.score ?? Number.NEGATIVE_INFINITY)) continue;
      const at = best.findIndex((entry) => score > entry.score);
      best.splice(at === -1 ? best.length : at, 0, { id, score });
      if (best.length > perSpeaker) best.pop();
    }
    for (const { id } of best) chosen.add(id);
  }
  return chosen;
}

/** The dot product of two vectors of one length, in four running sums so that the loop keeps the CPU busy. */
function dot(a: Float32Array, b: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const whole = a.length - (a.length % 4);
  for (let i = 0; i < whole; i += 4) {
    s0 += (a[i] ?? 0) * (b[i] ?? 0);
    s1 += (a[i + 1] ?? 0) * (b[i + 1] ?? 0);
    s2 += (a[i + 2] ?? 0) * (b[i + 2] ?? 0);
    s3 += (a[i + 3] ?? 0) * (b[i + 3] ?? 0);
  }
  for (let i = whole; i < a.length; i++) s0 += (a[i] ?? 0) * (b[i] ?? 0);
  return s0 + s1 + s2 + s3;
}

/**
 * Pairs the speakers of one recording with profiles, the whole recording at once: a speaker and a profile are
 * paired only when each is the other's strict best match, the profile's score (its best reference) is ahead of
 * the speaker's second-best profile by `margin`, and it reaches `suggest`. So two speakers never share a profile.
 * Profiles of another model or dimension, and references of another length, are never compared.
 */
export function matchVoices(
  speakers: readonly SpeakerVector[],
  profiles: readonly ProfileVectors[],
  embedder: { model: string; dimension: number },
  thresholds: MatchThresholds,
): VoiceMatch[] {
  const comparable = profiles.filter(
    (profile) => profile.model === embedder.model && profile.dimension === embedder.dimension,
  );
  const scores = scoreProfiles(speakers, comparable, embedder.dimension);
  const matches: VoiceMatch[] = [];
  speakers.forEach(({ speaker }, row) => {
    const own = scores[row] ?? new Float64Array(0);
    const column = strictBest(own);
    if (column === null) return;
    const score = own[column] ?? Number.NEGATIVE_INFINITY;
    let second = Number.NEGATIVE_INFINITY;
    own.forEach((value, index) => {
      if (index !== column && value > second) second = value;
    });
    const profile = comparable[column];
    if (!profile || score < thresholds.suggest || score - second < thresholds.margin) return;
    if (strictBest(scores.map((other) => other[column] ?? Number.NEGATIVE_INFINITY)) !== row) return;
    matches.push({ speaker, profile, score, confident: score >= thresholds.accept });
  });
  return matches;
}

/**
 * Each speaker's score against each profile, a row per speaker: the best cosine of its vector with the profile's
 * references of `dimension` values, or -Infinity when it has none (or the speaker's vector is of another length).
 * One pass over the references: each one's norm is computed once, for every speaker (10,000 profiles of five
 * references are 50,000 vectors: bench/voices/run.ts).
 */
function scoreProfiles(
  speakers: readonly SpeakerVector[],
  profiles: readonly ProfileVectors[],
  dimension: number,
): Float64Array[] {
  const scores = speakers.map(() => new Float64Array(profiles.length).fill(Number.NEGATIVE_INFINITY));
  const norms = speakers.map(({ vector }) => (vector.length === dimension ? dot(vector, vector) : null));
  profiles.forEach((profile, column) => {
    for (const reference of profile.references) {
      if (reference.length !== dimension) continue;
      const referenceNorm = dot(reference, reference);
      speakers.forEach(({ vector }, row) => {
        const norm = norms[row];
        const own = scores[row];
        if (norm === null || norm === undefined || own === undefined) return;
        const score =
          norm === 0 || referenceNorm === 0 ? 0 : dot(vector, reference) / Math.sqrt(norm * referenceNorm);
        if (score > (own[column] ?? Number.NEGATIVE_INFINITY)) own[column] = score;
      });
    }
  });
  return scores;
}

/** The index of the one highest finite value; null when there is none or two share it. */
function strictBest(values: ArrayLike<number>): number | null {
  let best: number | null = null;
  let tied = false;
  for (let index = 0; index < values.length; index++) {
    const value = values[index] ?? Number.NEGATIVE_INFINITY;
    if (!Number.isFinite(value)) continue;
    const current = best === null ? Number.NEGATIVE_INFINITY : (values[best] ?? Number.NEGATIVE_INFINITY);
    if (value > current) {
      best = index;
      tied = false;
    } else if (value === current) tied = true;
  }
  return tied ? null : best;
}

/**
 * Each diarized speaker's clean speech: its turns less every stretch another speaker's turn overlaps, in time
 * order and joined where its own turns touch, keyed by the diarizer's speaker label.
 */
export function cleanSpeech(turns: readonly SpeakerTurn[]): Map<number, Span[]> {
  const clean = new Map<number, Span[]>();
  for (const turn of turns) {
    let pieces: Span[] = [{ startMs: turn.startMs, endMs: turn.endMs }];
    for (const other of turns) {
      if (other.speaker === turn.speaker) continue;
      pieces = pieces.flatMap((piece) =>
        other.endMs <= piece.startMs || other.startMs >= piece.endMs
          ? [piece]
          : [
              { startMs: piece.startMs, endMs: other.startMs },
              { startMs: other.endMs, endMs: piece.endMs },
            ].filter((part) => part.endMs > part.startMs),
      );
    }
    const spans = clean.get(turn.speaker) ?? [];
    spans.push(...pieces);
    clean.set(turn.speaker, spans);
  }
  for (const [speaker, spans] of clean) {
    const merged: Span[] = [];
    for (const span of spans.sort((a, b) => a.startMs - b.startMs)) {
      const last = merged.at(-1);
      if (last && span.startMs <= last.endMs) last.endMs = Math.max(last.endMs, span.endMs);
      else merged.push({ ...span });
    }
    clean.set(speaker, merged);
  }
  return clean;
}
