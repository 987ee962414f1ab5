import { invalid } from "../../errors.ts";
import { formatSchemaError } from "../../http/errors.ts";
import { checkInput, decodeUtf8 } from "../../http/input-rules.ts";
import { parseJsonBody } from "../../http/json-body.ts";
import { createValidatorCompiler } from "../../http/validation.ts";
import { ProcessTextBody } from "./ingestion.schemas.ts";

/** A transcript file's content once read: a `process/text` body, or the text of a WebVTT or SRT file. */
export type TranscriptFile = { format: "json"; body: ProcessTextBody } | { format: "captions"; text: string };

// Compiled as the API compiles the route's body schema, so a file is refused in the API's words.
const checkProcessText = createValidatorCompiler()({
  schema: ProcessTextBody as object,
  httpPart: "body",
  method: "POST",
  url: "/v1/process/text",
});

/**
 * Reads a transcript file as the API reads a body, for the console's import and `bin/recap import`: a
 * WebVTT (.vtt), SRT (.srt) or `process/text` JSON (.json) file by its name, its bytes UTF-8 and its text
 * held to the input rules (http/input-rules.ts), a JSON file parsed as a body is and validated with the
 * route's schema. Throws invalid with the API's message (a file that is not UTF-8 is named `file`).
 */
export function readTranscriptFile(fileName: string, bytes: Buffer): TranscriptFile {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension !== "vtt" && extension !== "srt" && extension !== "json") {
    throw invalid("file must be a WebVTT (.vtt), SRT (.srt) or JSON (.json) transcript");
  }
  const text = decodeUtf8(bytes, "file");
  if (extension !== "json") {
    checkInput("body", text);
    return { format: "captions", text };
  }
  let body: unknown;
  try {
    body = parseJsonBody(text);
  } catch (error) {
    throw invalid((error as Error).message);
  }
  checkInput("body", body);
  if (!checkProcessText(body)) {
    throw invalid(formatSchemaError(checkProcessText.errors ?? [], "body").message);
  }
  return { format: "json", body: body as ProcessTextBody };
}
