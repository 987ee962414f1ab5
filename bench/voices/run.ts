/**
 * Voice matching measured (docs/VOICES.md, Measured), in one run:
 * - accuracy against the thresholds: synthetic voices (espeak-ng voices, variants and pitches, each recording
 *   through a random microphone tilt and a little noise) speak sentences; the enrolled voices' first sentences are
 *   their profiles' references, the held-out voices have no profile. The other sentences are grouped into
 *   recordings of several speakers, each speaker's embedding computed by sherpa-onnx's SpeakerEmbeddingExtractor
 *   (createVoiceEmbedder) and each recording matched by the real `matchVoices` as RECAP_VOICE_ACCEPT, _SUGGEST and
 *   _MARGIN are swept. The embedding model is generated (the spectral envelope, writeSpectralEmbedding in
 *   scripts/speech-models/models.ts, less its centre: the mean envelope of a cohort of voices used nowhere else),
 *   not CAM++: the figures measure Recap's matching rules and how they move with the thresholds on
 *   correlated-but-distinct embeddings, not any real model's accuracy on real people. The same recordings through
 *   the model without its centre show how much the right thresholds depend on the model.
 * - cost: matching a recording of 2, 4 and 6 speakers with 10,000 profiles of 5 references each in one app (192
 *   values, CAM++'s length) as VoicesService does, each speaker's 16 nearest profiles by centroid shortlisted and
 *   only those scored by `matchVoices`, beside, in the same run, `matchVoices` scoring every reference of every
 *   profile (the baseline, whose pairs it must give) and the floor of scoring every reference (one dot product
 *   each, over vectors normalised beforehand into one array); and the memory those vectors take.
 *
 * Usage: npm run bench:voices [-- --profiles 10000 --runs 20]   (writes bench/results/voices.txt)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { installSpectralEmbedding } from "../../scripts/speech-models/models.ts";
import { SAMPLE_RATE } from "../../src/media/engine.ts";
import { createVoiceEmbedder, type VoiceEmbedder } from "../../src/media/local/voice-embedding.ts";
import {
  centroidOf,
  cosine,
  matchVoices,
  shortlist,
  SHORTLIST_PER_SPEAKER,
  type VoiceMatch,
  type MatchThresholds,
  type ProfileVectors,
  type SpeakerVector,
} from "../../src/modules/voices/voice-matching.ts";
import { time, timeInterleaved } from "../timing.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: {
    profiles: { type: "string", default: "10000" },
    runs: { type: "string", default: "20" },
  },
});
const PROFILES = Number(values.profiles);
const RUNS = Number(values.runs);
const REFERENCES = 5;
const DIMENSION = 192;
const DEFAULTS: MatchThresholds = { accept: 0.6, suggest: 0.45, margin: 0.1 };

/** An espeak-ng voice (language+variant) at a pitch (0–99); `enrolled` voices get a profile, the others none. */
interface Voice {
  voice: string;
  pitch: number;
  enrolled: boolean;
}

const VOICES: Voice[] = [
  { voice: "en+m1", pitch: 50, enrolled: true },
  { voice: "en+m3", pitch: 40, enrolled: true },
  { voice: "en+f2", pitch: 50, enrolled: true },
  { voice: "en+f4", pitch: 60, enrolled: true },
  { voice: "en-us+m2", pitch: 50, enrolled: true },
  { voice: "en-us+f3", pitch: 55, enrolled: true },
  { voice: "en-gb-scotland+m7", pitch: 45, enrolled: true },
  { voice: "en-029+m4", pitch: 50, enrolled: true },
  { voice: "en+klatt", pitch: 50, enrolled: true },
  { voice: "en-gb-x-rp+f5", pitch: 50, enrolled: true },
  { voice: "en-us+m5", pitch: 35, enrolled: true },
  { voice: "en+Alicia", pitch: 50, enrolled: true },
  // No profile: a pitch twin of an enrolled voice, and voices unlike any profile.
  { voice: "en+m3", pitch: 65, enrolled: false },
  { voice: "en-us+f1", pitch: 50, enrolled: false },
  { voice: "en+m6", pitch: 45, enrolled: false },
  { voice: "en-gb+klatt3", pitch: 50, enrolled: false },
  { voice: "en+croak", pitch: 50, enrolled: false },
  { voice: "en-us+Andy", pitch: 50, enrolled: false },
];
/** The voices whose mean embedding is the model's centre: what all speech shares, learnt from none of the above. */
const COHORT: Voice[] = [
  { voice: "en+m2", pitch: 50, enrolled: false },
  { voice: "en+f3", pitch: 50, enrolled: false },
  { voice: "en-us+m4", pitch: 45, enrolled: false },
  { voice: "en-us+f5", pitch: 60, enrolled: false },
  { voice: "en-gb-x-rp+m1", pitch: 55, enrolled: false },
  { voice: "en+Annie", pitch: 50, enrolled: false },
];
const ENROLMENTS = 3;
const SENTENCES = [
  "The quick brown fox jumps over the lazy dog near the bank of the river.",
  "We should review the budget before the meeting on Thursday afternoon.",
  "Please send me the latest report and the notes from yesterday's call.",
  "I think the new design looks much better than the old one we had last year.",
  "Could you check whether the servers were restarted after the update?",
  "Our customers asked for a simpler way to export their invoices every month.",
  "Let's move the launch to next week so that the team has time to test it.",
  "The weather in the mountains changed quickly, so we walked back before dark.",
  "She explained the results again, slowly, for everyone who joined late.",
  "If the numbers hold, we can hire two more engineers in the spring.",
];
/** Speakers per test recording: the voices are shuffled into recordings of this many, once per test sentence. */
const SPEAKERS_PER_RECORDING = 3;

/** A deterministic source of numbers in [0, 1) (mulberry32), so every run hears the same recordings. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

const dir = mkdtempSync(join(tmpdir(), "recap-bench-voices-"));

/**
 * `voice` saying `sentence` as 16 kHz samples: espeak-ng, then sox (without dither, so that every run hears the
 * same) through a random microphone (bass and treble each within ±4 dB) with pauses over 0.1 s cut (as the
 * diarizer's turns leave them out), then white noise 30 dB below the speech.
 */
function speak({ voice, pitch }: Voice, sentence: string, random: () => number): Float32Array {
  const spoken = join(dir, "spoken.wav");
  execFileSync("espeak-ng", ["-v", voice, "-p", String(pitch), "-w", spoken, sentence]);
  const tilt = () => (8 * random() - 4).toFixed(1);
  const raw = execFileSync(
    "sox",
    [
      ...[
        "-V1",
        "-D",
        spoken,
        "-r",
        String(SAMPLE_RATE),
        "-c",
        "1",
        "-b",
        "16",
        "-e",
        "signed",
        "-t",
        "raw",
        "-",
      ],
      ...["vol", "0.8", "bass", tilt(), "treble", tilt()],
      ...["silence", "1", "0.05", "0.5%", "-1", "0.1", "0.5%"],
    ],
    { maxBuffer: 64 * 2 ** 20 },
  );
  const samples = new Float32Array(raw.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = raw.readInt16LE(i * 2) / 32768;
  const rms = Math.sqrt(samples.reduce((sum, x) => sum + x * x, 0) / samples.length);
  for (let i = 0; i < samples.length; i++)
    samples[i] = (samples[i] ?? 0) + 10 ** (-30 / 20) * rms * gaussian(random);
  return samples;
}

const voiceName = ({ voice, pitch }: Voice) => `${voice} p${pitch}`;

/** Every speaker of every test recording, and the profile it should be given (null for a voice without one). */
interface Recording {
  speakers: SpeakerVector[];
  truth: Map<number, string | null>;
  voices: Map<number, string>;
}

interface Outcome {
  namedRight: number;
  namedWrong: number;
  impostorsNamed: number;
  suggestedRight: number;
  suggestedWrong: number;
  impostorsSuggested: number;
  enrolled: number;
  impostors: number;
  /** The voices of the speakers without a profile that were named, one entry a time. */
  impostorVoicesNamed: string[];
}

function outcome(recordings: readonly Recording[], profiles: ProfileVectors[], at: MatchThresholds): Outcome {
  const counts: Outcome = {
    namedRight: 0,
    namedWrong: 0,
    impostorsNamed: 0,
    suggestedRight: 0,
    suggestedWrong: 0,
    impostorsSuggested: 0,
    enrolled: 0,
    impostors: 0,
    impostorVoicesNamed: [],
  };
  for (const { speakers, truth, voices } of recordings) {
    for (const own of truth.values()) {
      if (own === null) counts.impostors++;
      else counts.enrolled++;
    }
    const dimension = profiles[0]?.dimension ?? 0;
    for (const match of matchVoices(speakers, profiles, { model: "campplus-en-voxceleb", dimension }, at)) {
      const own = truth.get(match.speaker) ?? null;
      if (own === null) {
        if (match.confident) {
          counts.impostorsNamed++;
          counts.impostorVoicesNamed.push(voices.get(match.speaker) ?? "?");
        } else counts.impostorsSuggested++;
      } else if (own === match.profile.id) {
        if (match.confident) counts.namedRight++;
        else counts.suggestedRight++;
      } else if (match.confident) counts.namedWrong++;
      else counts.suggestedWrong++;
    }
  }
  return counts;
}

const percent = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
const fixed = (value: number) => value.toFixed(2);

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] ?? Number.NaN;
}

const spread = (values: readonly number[]) =>
  `min ${quantile(values, 0).toFixed(3)}, p5 ${quantile(values, 0.05).toFixed(3)}, median ${quantile(values, 0.5).toFixed(3)}, p95 ${quantile(values, 0.95).toFixed(3)}, max ${quantile(values, 1).toFixed(3)}`;

/** Every test speaker's embedding as `embedder` computes it, grouped into recordings, and the profiles enrolled. */
function hear(embedder: VoiceEmbedder, recordings: readonly RecordingPlan[], seed: number) {
  const random = seeded(seed);
  const seconds: number[] = [];
  const said = VOICES.map((voice) =>
    SENTENCES.map((sentence) => {
      const samples = speak(voice, sentence, random);
      seconds.push(samples.length / SAMPLE_RATE);
      return embedder.embed(samples);
    }),
  );
  const profiles: ProfileVectors[] = VOICES.flatMap((voice, index) =>
    voice.enrolled
      ? [
          {
            id: voiceName(voice),
            name: voiceName(voice),
            email: null,
            model: embedder.model,
            dimension: embedder.dimension,
            references: (said[index] ?? []).slice(0, ENROLMENTS),
          },
        ]
      : [],
  );
  const heard: Recording[] = recordings.map(({ sentence, voices }) => {
    const speakers: SpeakerVector[] = [];
    const truth = new Map<number, string | null>();
    const names = new Map<number, string>();
    voices.forEach((index, speaker) => {
      const voice = VOICES[index];
      const vector = said[index]?.[sentence];
      if (!voice || !vector) return;
      speakers.push({ speaker, vector });
      truth.set(speaker, voice.enrolled ? voiceName(voice) : null);
      names.set(speaker, voiceName(voice));
    });
    return { speakers, truth, voices: names };
  });

  // The scores themselves: each test speaker against its own profile, and its best against any other profile.
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (const { speakers, truth } of heard) {
    for (const { speaker, vector } of speakers) {
      const own = truth.get(speaker) ?? null;
      const scores = profiles.map((profile) => ({
        id: profile.id,
        score: Math.max(...profile.references.map((reference) => cosine(vector, reference))),
      }));
      const ownScore = scores.find(({ id }) => id === own)?.score;
      if (ownScore !== undefined) genuine.push(ownScore);
      impostor.push(Math.max(...scores.filter(({ id }) => id !== own).map(({ score }) => score)));
    }
  }
  return { seconds, profiles, heard, genuine, impostor };
}

/** A test recording: which voices speak in it (speaker i is VOICES[voices[i]]), each saying SENTENCES[sentence]. */
interface RecordingPlan {
  sentence: number;
  voices: number[];
}

/** Each test sentence once per voice: the voices shuffled into recordings of SPEAKERS_PER_RECORDING speakers. */
function planRecordings(random: () => number): RecordingPlan[] {
  const plans: RecordingPlan[] = [];
  for (let sentence = ENROLMENTS; sentence < SENTENCES.length; sentence++) {
    const order = VOICES.map((_, index) => index);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
    }
    for (let start = 0; start < order.length; start += SPEAKERS_PER_RECORDING)
      plans.push({ sentence, voices: order.slice(start, start + SPEAKERS_PER_RECORDING) });
  }
  return plans;
}

const HEADER = "accept suggest margin  named right named wrong impostors named suggested right/wrong/imp.";

function row(at: MatchThresholds, counts: Outcome): string {
  return [
    fixed(at.accept).padStart(6),
    fixed(at.suggest).padStart(7),
    fixed(at.margin).padStart(6),
    `${counts.namedRight} (${percent(counts.namedRight, counts.enrolled)})`.padStart(12),
    String(counts.namedWrong).padStart(11),
    String(counts.impostorsNamed).padStart(15),
    `${counts.suggestedRight}/${counts.suggestedWrong}/${counts.impostorsSuggested}`.padStart(26),
  ].join(" ");
}

function accuracy(): string[] {
  const modelsDir = join(dir, "models");
  installSpectralEmbedding(modelsDir);
  const uncentredEmbedder = createVoiceEmbedder({ modelsDir, numThreads: 1 });
  const random = seeded(37);
  const cohort = COHORT.flatMap((voice) =>
    SENTENCES.map((sentence) => uncentredEmbedder.embed(speak(voice, sentence, random))),
  );
  const centre = new Float32Array(uncentredEmbedder.dimension);
  for (const vector of cohort)
    vector.forEach((value, i) => (centre[i] = (centre[i] ?? 0) + value / cohort.length));
  installSpectralEmbedding(modelsDir, centre);
  const embedder = createVoiceEmbedder({ modelsDir, numThreads: 1 });

  const plans = planRecordings(random);
  // The same recordings (the same random microphones and noise) through both models.
  const uncentred = hear(uncentredEmbedder, plans, 1);
  const { seconds, profiles, heard, genuine, impostor } = hear(embedder, plans, 1);
  const judge = (at: MatchThresholds) => outcome(heard, profiles, at);

  const sweep = Array.from({ length: 14 }, (_, step) => {
    const accept = 0.3 + 0.05 * step;
    const at = { ...DEFAULTS, accept, suggest: Math.max(0, accept - (DEFAULTS.accept - DEFAULTS.suggest)) };
    return { at, counts: judge(at) };
  });
  const speakers = heard.reduce((sum, { truth }) => sum + truth.size, 0);
  const chosen =
    sweep.find(({ counts }) => counts.namedWrong + counts.impostorsNamed <= 0.01 * speakers) ?? sweep.at(-1);
  const margins = [0, 0.02, 0.05, 0.1, 0.15, 0.2].map((margin) => {
    const at = { ...(chosen?.at ?? DEFAULTS), margin };
    return { at, counts: judge(at) };
  });
  const atDefaults = judge(DEFAULTS);

  const enrolled = VOICES.filter((voice) => voice.enrolled);
  const impostors = VOICES.filter((voice) => !voice.enrolled);
  return [
    `## accuracy: synthetic voices through a generated embedding model (the spectral envelope, ${embedder.dimension} values), not CAM++ on real people`,
    `${VOICES.length} espeak-ng voices: ${enrolled.length} with a profile (${enrolled.map(voiceName).join(", ")}), ${impostors.length} without (${impostors.map(voiceName).join(", ")})`,
    `each says ${SENTENCES.length} sentences (${quantile(seconds, 0).toFixed(1)} to ${quantile(seconds, 1).toFixed(1)} s of speech, median ${quantile(seconds, 0.5).toFixed(1)}), each through a random microphone tilt (bass and treble ±4 dB) and noise 30 dB down; a profile's ${ENROLMENTS} references are its voice's first ${ENROLMENTS} sentences`,
    `the other ${SENTENCES.length - ENROLMENTS} sentences of every voice make ${heard.length} test recordings of ${SPEAKERS_PER_RECORDING} speakers (${speakers} speakers: ${atDefaults.enrolled} with a profile, ${atDefaults.impostors} without), each matched as a whole by matchVoices`,
    `the model's centre: the mean embedding of ${COHORT.length} other voices (${COHORT.map(voiceName).join(", ")}), ${SENTENCES.length} sentences each`,
    "",
    `scores (raw cosine) — a speaker against its own profile: ${spread(genuine)}`,
    `                    — a speaker's best against any other profile: ${spread(impostor)}`,
    `suggest = accept − ${fixed(DEFAULTS.accept - DEFAULTS.suggest)} (the defaults' gap), margin ${DEFAULTS.margin}; "named wrong": a speaker with a profile given another's name; "impostors": speakers without a profile`,
    HEADER,
    ...sweep.map(({ at, counts }) => row(at, counts)),
    "",
    `chosen point: the lowest accept whose wrong names (named wrong + impostors named) are at most 1% of the ${speakers} speakers; the margin swept there:`,
    HEADER,
    ...margins.map(({ at, counts }) => row(at, counts)),
    `speakers without a profile named at the chosen point: ${chosen?.counts.impostorVoicesNamed.join(", ") || "none"}`,
    "",
    `the same recordings through the model without its centre (every voice's common envelope left in):`,
    `scores (raw cosine) — a speaker against its own profile: ${spread(uncentred.genuine)}`,
    `                    — a speaker's best against any other profile: ${spread(uncentred.impostor)}`,
    HEADER,
    row(DEFAULTS, outcome(uncentred.heard, uncentred.profiles, DEFAULTS)),
    row({ ...DEFAULTS, margin: 0 }, outcome(uncentred.heard, uncentred.profiles, { ...DEFAULTS, margin: 0 })),
  ];
}

/** The process's resident memory in MiB, as the kernel counts it (native allocations included). */
function residentMiB(): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${process.pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}

/** The floor: one dot product a speaker and reference, over references normalised once into one flat array. */
function bestDots(units: readonly Float32Array[], normalised: Float32Array): number[] {
  return units.map((unit) => {
    let best = Number.NEGATIVE_INFINITY;
    for (let offset = 0; offset < normalised.length; offset += DIMENSION) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let i = 0; i < DIMENSION; i += 4) {
        s0 += (unit[i] ?? 0) * (normalised[offset + i] ?? 0);
        s1 += (unit[i + 1] ?? 0) * (normalised[offset + i + 1] ?? 0);
        s2 += (unit[i + 2] ?? 0) * (normalised[offset + i + 2] ?? 0);
        s3 += (unit[i + 3] ?? 0) * (normalised[offset + i + 3] ?? 0);
      }
      best = Math.max(best, s0 + s1 + s2 + s3);
    }
    return best;
  });
}

/** `vector` scaled to length 1. */
function normalise(vector: Float32Array): Float32Array {
  const length = Math.hypot(...vector);
  return vector.map((value) => value / length);
}

function cost(): string[] {
  const random = seeded(10_000);
  const unit = () => Float32Array.from({ length: DIMENSION }, () => gaussian(random));
  global.gc?.();
  const residentBefore = residentMiB();
  const heapBefore = process.memoryUsage().heapUsed;
  const profiles: ProfileVectors[] = Array.from({ length: PROFILES }, (_, index) => ({
    id: `profile-${index}`,
    name: `Person ${index}`,
    email: null,
    model: "campplus-en-voxceleb",
    dimension: DIMENSION,
    references: Array.from({ length: REFERENCES }, unit),
  }));
  global.gc?.();
  const residentAfter = residentMiB();
  const heapAfter = process.memoryUsage().heapUsed;
  const vectorBytes = PROFILES * REFERENCES * DIMENSION * 4;
  const embedder = { model: "campplus-en-voxceleb", dimension: DIMENSION };
  const normalised = new Float32Array(vectorBytes / 4);
  profiles
    .flatMap((profile) => profile.references)
    .forEach((reference, index) => normalised.set(normalise(reference), index * DIMENSION));

  const lines = [
    `## cost: ${PROFILES.toLocaleString("en")} profiles × ${REFERENCES} references × ${DIMENSION} values (CAM++'s length) in one app; ${RUNS} interleaved runs`,
    `memory: the vectors are ${(vectorBytes / 2 ** 20).toFixed(1)} MiB of float32; the profiles as matchVoices takes them: heap +${((heapAfter - heapBefore) / 2 ** 20).toFixed(1)} MiB, resident memory (VmRSS) ${residentBefore.toFixed(0)} → ${residentAfter.toFixed(0)} MiB (+${(residentAfter - residentBefore).toFixed(1)})`,
  ];
  const centroids = profiles.map((profile) => ({
    id: profile.id,
    centroid: centroidOf(profile.references, DIMENSION) ?? new Float32Array(DIMENSION),
  }));
  const byId = new Map(profiles.map((profile) => [profile.id, profile]));
  /** What VoicesService.recogniseSpeakers does once the profiles are read: shortlist by centroid, then match. */
  const shortlisted = (speakers: SpeakerVector[]) =>
    matchVoices(
      speakers,
      [...shortlist(speakers, centroids, SHORTLIST_PER_SPEAKER)].flatMap((id) => byId.get(id) ?? []),
      embedder,
      DEFAULTS,
    );
  for (const count of [2, 4, 6]) {
    // Each speaker one of the profiles' people: one of its references with noise a third of its size added.
    const speakers = Array.from({ length: count }, (_, speaker) => {
      const reference = profiles[Math.floor(random() * PROFILES)]?.references[0] ?? unit();
      const noise = unit();
      const scale = Math.hypot(...reference) / Math.hypot(...noise) / 3;
      return { speaker, vector: reference.map((value, i) => value + scale * (noise[i] ?? 0)) };
    });
    const [matching, full] = timeInterleaved(
      () => void shortlisted(speakers),
      () => void matchVoices(speakers, profiles, embedder, DEFAULTS),
      RUNS,
    );
    const units = speakers.map(({ vector }) => normalise(vector));
    const floor = time(() => void bestDots(units, normalised), RUNS);
    const pairs = (matches: VoiceMatch[]) =>
      matches.map((match) => `${match.speaker}:${match.profile.id}:${match.score.toFixed(6)}`).join(" ");
    const same = pairs(shortlisted(speakers)) === pairs(matchVoices(speakers, profiles, embedder, DEFAULTS));
    const perSpeaker = (times: number[], q: number) => quantile(times, q) / count;
    lines.push(
      `${count} speakers — shortlist (${SHORTLIST_PER_SPEAKER} a speaker, by centroid) then matchVoices: ${perSpeaker(matching, 0.5).toFixed(2)} ms a speaker (p50; p95 ${perSpeaker(matching, 0.95).toFixed(2)}), ${quantile(matching, 0.5).toFixed(1)} ms the recording; the same pairs and scores as scoring every reference: ${same ? "yes" : "NO"}`,
      `  baseline, matchVoices over every profile's every reference: ${perSpeaker(full, 0.5).toFixed(2)} ms a speaker; shortlisted ÷ baseline: ${(quantile(matching, 0.5) / quantile(full, 0.5)).toFixed(2)}`,
      `  floor of scoring every reference, one dot product a speaker × reference over vectors normalised beforehand into one flat array: ${perSpeaker(floor, 0.5).toFixed(2)} ms a speaker`,
    );
  }
  return lines;
}

try {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const lines = [
    `# bench:voices — ${new Date().toISOString()} — ${cpus().length} × ${cpu}`,
    "",
    ...accuracy(),
    "",
    ...cost(),
  ];
  console.log(lines.join("\n"));
  writeFileSync(join(ROOT, "bench/results/voices.txt"), lines.join("\n") + "\n");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
