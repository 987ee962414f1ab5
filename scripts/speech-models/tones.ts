/**
 * What the generated models hear: pure tones. Each recogniser's token and each diarization voice is a tone at a
 * frequency of its own, found in the mel bins the tone lands in (for the families that read sherpa-onnx's
 * features) or by a Fourier coefficient of the samples (for those that read samples).
 */

export const SAMPLE_RATE = 16_000;

/** One token of a tone recogniser: the SentencePiece piece it emits when a tone at `hz` starts. */
export interface ToneToken {
  piece: string;
  hz: number;
}

/** The tones of the generated recognisers: "▁lo" + "w" make the word "low". */
export const TONE_TOKENS: ToneToken[] = [
  { piece: "\u2581lo", hz: 300 },
  { piece: "w", hz: 1000 },
  { piece: "\u2581hi", hz: 2000 },
];

/** The two synthetic voices the generated diarization models tell apart. */
export const VOICES: [number, number] = [300, 2000];

/** A mel filterbank as sherpa-onnx computes it for a family: how many bins, over which range, on which scale. */
export interface MelBank {
  bins: number;
  lowHz: number;
  highHz: number;
  /** Kaldi's (HTK's) mel scale, or Slaney's, which librosa and Whisper use. */
  scale: "kaldi" | "slaney";
}

/** sherpa-onnx's default fbank (kaldi-native-fbank): 80 bins from 20 Hz to 400 Hz below Nyquist. */
export const KALDI_FBANK: MelBank = { bins: 80, lowHz: 20, highHz: SAMPLE_RATE / 2 - 400, scale: "kaldi" };
/** Whisper's log-mel spectrogram (80 bins, 0 to 8000 Hz, librosa's filters). */
export const WHISPER_MELS: MelBank = { bins: 80, lowHz: 0, highHz: SAMPLE_RATE / 2, scale: "slaney" };
/** NeMo's features as sherpa-onnx computes them for Parakeet (feat_dim 128, librosa's filters, 0 to 7600 Hz). */
export const NEMO_MELS: MelBank = { bins: 128, lowHz: 0, highHz: SAMPLE_RATE / 2 - 400, scale: "slaney" };

const SLANEY_LINEAR_HZ = 200 / 3;
const SLANEY_LOG_STEP = Math.log(6.4) / 27;

const toMel = (hz: number, scale: MelBank["scale"]) =>
  scale === "kaldi"
    ? 1127 * Math.log(1 + hz / 700)
    : hz < 1000
      ? hz / SLANEY_LINEAR_HZ
      : 15 + Math.log(hz / 1000) / SLANEY_LOG_STEP;

const fromMel = (mel: number, scale: MelBank["scale"]) =>
  scale === "kaldi"
    ? 700 * (Math.exp(mel / 1127) - 1)
    : mel < 15
      ? mel * SLANEY_LINEAR_HZ
      : 1000 * Math.exp((mel - 15) * SLANEY_LOG_STEP);

/** The centre frequency of each bin of `bank`: its filters are triangles between evenly spaced mel points. */
function binCentres(bank: MelBank): number[] {
  const low = toMel(bank.lowHz, bank.scale);
  const step = (toMel(bank.highHz, bank.scale) - low) / (bank.bins + 1);
  return Array.from({ length: bank.bins }, (_, bin) => fromMel(low + (bin + 1) * step, bank.scale));
}

/** The three bins of `bank` nearest to `hz`. */
function binsNear(hz: number, bank: MelBank): number[] {
  return binCentres(bank)
    .map((centre, bin) => ({ bin, distance: Math.abs(Math.log(centre / hz)) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ bin }) => bin);
}

/**
 * A column of weights over a frame's log-mel features that reads how far the bins around `hz` stand above the
 * frame's mean: near zero in silence or broadband noise, large while a tone at `hz` sounds.
 */
export function toneDetector(hz: number, bank: MelBank = KALDI_FBANK): Float32Array {
  const column = new Float32Array(bank.bins).fill(-1 / bank.bins);
  const bins = binsNear(hz, bank);
  for (const bin of bins) column[bin] = (column[bin] ?? 0) + 1 / bins.length;
  return column;
}

/** Weights [rows, columns.length], row-major, from per-column detectors of `rows` features each. */
export function weightMatrix(columns: Float32Array[], rows: number = KALDI_FBANK.bins): Float32Array {
  const weights = new Float32Array(rows * columns.length);
  columns.forEach((column, j) => column.forEach((w, i) => (weights[i * columns.length + j] = w)));
  return weights;
}
