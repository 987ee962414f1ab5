/**
 * What sherpa-onnx 1.13.8 needs of an installed recogniser's files, checked before it loads them. On a file that
 * is not what its family's layout says, sherpa-onnx ends the process (a metadata key it requires missing, a tokens
 * line it cannot read), crashes (a NeMo decoder and joiner swapped), or loads and then answers empty text for
 * every utterance (Moonshine's models in each other's roles): a hand-installed model, or a manifest naming the
 * wrong file for a role, would take the server down or transcribe nothing. So each file is checked against its
 * role: the element types of its inputs, in order (what sherpa-onnx feeds it), how many outputs it has (at least
 * those sherpa-onnx reads), the encoder's metadata and the tokens file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ModelNotInstalled, type InstalledModel } from "../model-store.ts";
import type { RecogniserFamily } from "../models.ts";
import { NotAnOnnxModel, readOnnxSignature, type OnnxSignature } from "./onnx-signature.ts";

interface RoleLayout {
  /** What the file is, in messages. */
  what: string;
  /** The element types of the inputs sherpa-onnx feeds, in order; a cached decoder takes its caches after them. */
  inputs: string[];
  /** How many outputs sherpa-onnx reads. */
  outputs: number;
  /** The metadata keys sherpa-onnx requires of the file. */
  metadata?: string[];
}

/** The keys OfflineWhisperModel reads with SHERPA_ONNX_READ_META_DATA (and, of a multilingual model, the lists). */
const WHISPER_KEYS = [
  "n_mels",
  "n_text_layer",
  "n_text_ctx",
  "n_text_state",
  "n_vocab",
  "sot",
  "eot",
  "blank_id",
  "translate",
  "transcribe",
  "is_multilingual",
  "no_timestamps",
  "no_speech",
  "sot_sequence",
];
const WHISPER_MULTILINGUAL_KEYS = ["all_language_tokens", "all_language_codes"];
/** The keys OfflineTransducerNeMoModel requires (normalize_type, feat_dim and url it reads when present). */
const NEMO_KEYS = ["vocab_size", "subsampling_factor", "pred_rnn_layers", "pred_hidden"];

const LAYOUTS: Record<RecogniserFamily, Record<string, RoleLayout>> = {
  moonshine: {
    preprocessor: { what: "Moonshine preprocessor", inputs: ["float"], outputs: 1 },
    encoder: { what: "Moonshine encoder", inputs: ["float", "int32"], outputs: 1 },
    uncachedDecoder: { what: "Moonshine uncached decoder", inputs: ["int32", "float", "int32"], outputs: 2 },
    cachedDecoder: { what: "Moonshine cached decoder", inputs: ["int32", "float", "int32"], outputs: 2 },
  },
  whisper: {
    encoder: { what: "Whisper encoder", inputs: ["float"], outputs: 2, metadata: WHISPER_KEYS },
    decoder: {
      what: "Whisper decoder",
      inputs: ["int64", "float", "float", "float", "float", "int64"],
      outputs: 3,
    },
  },
  "nemo-transducer": {
    encoder: { what: "NeMo transducer encoder", inputs: ["float", "int64"], outputs: 2, metadata: NEMO_KEYS },
    decoder: { what: "NeMo transducer decoder", inputs: ["int32", "int32", "float", "float"], outputs: 4 },
    joiner: { what: "NeMo transducer joiner", inputs: ["float", "float"], outputs: 1 },
  },
  "zipformer-ctc": {
    model: { what: "zipformer CTC model", inputs: ["float", "int64"], outputs: 2 },
  },
};

const list = (types: string[]) => `(${types.join(", ")})`;

/**
 * Checks an installed recogniser's files against its family's layout before sherpa-onnx loads them.
 * @throws ModelNotInstalled naming the file, its role and what is wrong with it
 */
export function checkRecogniserLayout(model: InstalledModel & { dir: string }): void {
  const family = model.family;
  if (family === undefined) return;
  const fail = (file: string, problem: string): never => {
    throw new ModelNotInstalled(`model ${model.name}: ${file} ${problem}`);
  };
  const signatures = new Map<string, OnnxSignature>();
  for (const [role, layout] of Object.entries(LAYOUTS[family])) {
    const file = model.files[role];
    if (file === undefined) throw new ModelNotInstalled(`model ${model.name} has no ${role} file`);
    const named = `${file} (its ${role})`;
    let signature: OnnxSignature;
    try {
      signature = readOnnxSignature(join(model.dir, file));
    } catch (error) {
      if (!(error instanceof NotAnOnnxModel)) throw error;
      return fail(named, `is not an ONNX model (${error.message})`);
    }
    signatures.set(role, signature);
    const inputs = signature.inputs.map((input) => input.type);
    const fed = layout.inputs;
    const cached = role === "cachedDecoder";
    const inputsFit =
      fed.every((type, index) => inputs[index] === type) && (cached || inputs.length === fed.length);
    if (!inputsFit) {
      fail(
        named,
        `is not a ${layout.what}, which takes ${list(fed)}${cached ? " and its caches" : ""}; it takes ${list(inputs)}`,
      );
    }
    if (signature.outputs.length < layout.outputs) {
      fail(
        named,
        `is not a ${layout.what}, which gives ${layout.outputs} outputs; it gives ${signature.outputs.length}`,
      );
    }
    const required = [
      ...(layout.metadata ?? []),
      ...(family === "whisper" && (signature.metadata.get("is_multilingual") ?? "0") !== "0"
        ? WHISPER_MULTILINGUAL_KEYS
        : []),
    ];
    const missing = required.filter((key) => (signature.metadata.get(key) ?? "") === "");
    if (missing.length > 0) {
      fail(
        named,
        `lacks the metadata sherpa-onnx reads of a ${layout.what} (${missing.join(", ")}): it was not exported for sherpa-onnx`,
      );
    }
  }
  if (family === "moonshine") checkMoonshineCaches(model, signatures, fail);
  const tokensFile = model.files.tokens;
  if (tokensFile === undefined) throw new ModelNotInstalled(`model ${model.name} has no tokens file`);
  const tokens = readTokens(join(model.dir, tokensFile), (problem) => fail(tokensFile, problem));
  if (family === "whisper") {
    const notBase64 = [...tokens.keys()].find((symbol) => symbol !== " " && !BASE64.test(symbol));
    if (notBase64 !== undefined)
      fail(tokensFile, `is not a Whisper tokens file: "${notBase64}" is not base64`);
  }
  if (family === "nemo-transducer") checkNemoTokens(model, signatures, tokens, fail);
}

/** The cached decoder takes, after the token, the encoder's output and the length, each cache the uncached gives. */
function checkMoonshineCaches(
  model: InstalledModel,
  signatures: Map<string, OnnxSignature>,
  fail: (file: string, problem: string) => never,
): void {
  const caches = (signatures.get("uncachedDecoder")?.outputs.length ?? 1) - 1;
  const cached = signatures.get("cachedDecoder");
  const file = model.files.cachedDecoder ?? "";
  if (cached !== undefined && cached.inputs.length !== 3 + caches) {
    fail(
      file,
      `is not the cached decoder of ${model.files.uncachedDecoder}: it takes ${cached.inputs.length} inputs where one takes 3 and the ${caches} caches the uncached decoder gives`,
    );
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** The white space C++'s `>>` and sherpa-onnx's Trim skip. */
const CPP_SPACE = /[ \t\n\v\f\r]+/;

/**
 * A tokens file as sherpa-onnx's ReadTokens reads it (symbol to id, the first of a symbol kept): each line a
 * symbol and an integer id, or an id alone (the symbol " "); any other line ends the process.
 */
function readTokens(path: string, fail: (problem: string) => never): Map<string, number> {
  const tokens = new Map<string, number>();
  readFileSync(path, "latin1")
    .split("\n")
    .forEach((line, index) => {
      const words = line.split(CPP_SPACE).filter((word) => word !== "");
      if (words.length === 0) return;
      const [symbol, id] = words.length === 1 ? [" ", words[0]] : words;
      if (words.length > 2 || !/^[-+]?\d+$/.test(id ?? "")) {
        fail(`is not a tokens file sherpa-onnx reads: line ${index + 1} is not a token and its id`);
      }
      if (!tokens.has(symbol ?? " ")) tokens.set(symbol ?? " ", Number(id));
    });
  return tokens;
}

/**
 * sherpa-onnx takes the encoder's vocab_size without blank, wants `<blk>` as the last token, and a joiner that
 * answers vocab_size + 1 logits (a TDT joiner, named by the encoder's url, also the durations').
 */
function checkNemoTokens(
  model: InstalledModel,
  signatures: Map<string, OnnxSignature>,
  tokens: Map<string, number>,
  fail: (file: string, problem: string) => never,
): void {
  const metadata = signatures.get("encoder")?.metadata ?? new Map<string, string>();
  const normalize = metadata.get("normalize_type") ?? "";
  if (!["", "NA", "per_feature"].includes(normalize)) {
    fail(
      model.files.encoder ?? "",
      `asks for features normalised ${normalize}, which sherpa-onnx does not do`,
    );
  }
  const vocabulary = Number.parseInt(metadata.get("vocab_size") ?? "", 10) + 1;
  const tokensFile = model.files.tokens ?? "";
  if (tokens.get("<blk>") !== vocabulary - 1 || tokens.size !== vocabulary) {
    fail(
      tokensFile,
      `does not fit the encoder's vocab_size: it must hold ${vocabulary} tokens, the last <blk> (${vocabulary - 1})`,
    );
  }
  const answers = signatures.get("joiner")?.outputs[0]?.dims.at(-1) ?? null;
  const tdt = (metadata.get("url") ?? "").includes("tdt");
  if (tdt ? answers === vocabulary : answers !== vocabulary) {
    fail(
      model.files.joiner ?? "",
      tdt
        ? `answers ${vocabulary} values, the tokens' alone, where a TDT joiner also answers durations`
        : `answers ${answers ?? "a symbolic number of"} values where the encoder's vocab_size needs ${vocabulary}`,
    );
  }
}
