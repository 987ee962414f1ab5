/**
 * Reads what a model's ONNX file says of itself without loading it: its inputs and outputs (name, element type,
 * dimensions) and its custom metadata, from the protobuf wire format (onnx.proto: ModelProto's graph and
 * metadata_props). Only the fields it needs are read; the weights are skipped over, so a 600 MB model costs a
 * few hundred small reads.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export interface OnnxTensorInfo {
  name: string;
  /** onnx.proto's TensorProto.DataType name: `float`, `int32`, `int64`, … (`type 42` for one it does not name). */
  type: string;
  /** Each dimension's size, or null where it is symbolic (`T`, `batch`). */
  dims: (number | null)[];
}

export interface OnnxSignature {
  /** The graph's inputs that are not initializers: what a caller must feed, in order. */
  inputs: OnnxTensorInfo[];
  outputs: OnnxTensorInfo[];
  metadata: Map<string, string>;
}

/** The file is not an ONNX model (or not one this reader understands). */
export class NotAnOnnxModel extends Error {
  override name = "NotAnOnnxModel";
}

const ELEMENT_TYPES: Record<number, string> = {
  1: "float",
  2: "uint8",
  3: "int8",
  5: "int16",
  6: "int32",
  7: "int64",
  8: "string",
  9: "bool",
  10: "float16",
  11: "double",
};

/** Bytes at any position of a file, read through one 64 KiB window so small neighbouring fields cost one read. */
class FileBytes {
  private readonly window = Buffer.alloc(64 * 1024);
  private windowStart = 0;
  private windowEnd = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  byte(position: number): number {
    if (position < this.windowStart || position >= this.windowEnd) {
      this.windowStart = position;
      this.windowEnd = position + readSync(this.fd, this.window, 0, this.window.length, position);
      if (position >= this.windowEnd) throw new NotAnOnnxModel("it ends inside a field");
    }
    return this.window[position - this.windowStart]!;
  }

  slice(start: number, end: number): Buffer {
    const bytes = Buffer.alloc(end - start);
    if (readSync(this.fd, bytes, 0, bytes.length, start) !== bytes.length)
      throw new NotAnOnnxModel("it ends inside a field");
    return bytes;
  }
}

class MemoryBytes {
  constructor(private readonly bytes: Buffer) {}

  get size(): number {
    return this.bytes.length;
  }

  byte(position: number): number {
    const value = this.bytes[position];
    if (value === undefined) throw new NotAnOnnxModel("it ends inside a field");
    return value;
  }

  slice(start: number, end: number): Buffer {
    return this.bytes.subarray(start, end);
  }
}

type Bytes = FileBytes | MemoryBytes;

interface Field {
  number: number;
  /** A varint's value; for a length-delimited field, its payload's start and end. */
  value: number;
  start: number;
  end: number;
}

function varint(bytes: Bytes, position: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let at = position; at < position + 10; at++) {
    const byte = bytes.byte(at);
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (byte < 0x80) return { value, next: at + 1 };
  }
  throw new NotAnOnnxModel("a varint runs on");
}

/** The fields of the message between `start` and `end`. */
function* fields(bytes: Bytes, start: number, end: number): Generator<Field> {
  let position = start;
  while (position < end) {
    const tag = varint(bytes, position);
    const number = Math.floor(tag.value / 8);
    const wire = tag.value % 8;
    if (number === 0) throw new NotAnOnnxModel("a field is numbered 0");
    position = tag.next;
    if (wire === 0) {
      const { value, next } = varint(bytes, position);
      yield { number, value, start: position, end: next };
      position = next;
    } else if (wire === 2) {
      const length = varint(bytes, position);
      const payloadEnd = length.next + length.value;
      if (payloadEnd > end) throw new NotAnOnnxModel("a field runs past its message");
      yield { number, value: length.value, start: length.next, end: payloadEnd };
      position = payloadEnd;
    } else if (wire === 1 || wire === 5) {
      position += wire === 1 ? 8 : 4;
    } else {
      throw new NotAnOnnxModel(`wire type ${wire} is not protobuf's`);
    }
  }
  if (position !== end) throw new NotAnOnnxModel("a field runs past its message");
}

const text = (bytes: Bytes, field: Field) => bytes.slice(field.start, field.end).toString("utf8");

/** ValueInfoProto: name (1), type (2) → TypeProto.tensor_type (1) → elem_type (1), shape (2) → dim (1). */
function tensorInfo(bytes: Bytes, start: number, end: number): OnnxTensorInfo {
  const info: OnnxTensorInfo = { name: "", type: "unknown", dims: [] };
  for (const field of fields(bytes, start, end)) {
    if (field.number === 1) info.name = text(bytes, field);
    if (field.number !== 2) continue;
    for (const type of fields(bytes, field.start, field.end)) {
      if (type.number !== 1) continue;
      for (const tensor of fields(bytes, type.start, type.end)) {
        if (tensor.number === 1) info.type = ELEMENT_TYPES[tensor.value] ?? `type ${tensor.value}`;
        if (tensor.number !== 2) continue;
        for (const dim of fields(bytes, tensor.start, tensor.end)) {
          if (dim.number !== 1) continue;
          let size: number | null = null;
          for (const value of fields(bytes, dim.start, dim.end)) if (value.number === 1) size = value.value;
          info.dims.push(size);
        }
      }
    }
  }
  return info;
}

/** An initializer's name (TensorProto field 8), read without its data. */
function initializerName(bytes: Bytes, start: number, end: number): string | null {
  for (const field of fields(bytes, start, end)) if (field.number === 8) return text(bytes, field);
  return null;
}

/**
 * The signature of the ONNX model in `path`.
 * @throws NotAnOnnxModel when the file is not a protobuf ModelProto with a graph
 */
export function readOnnxSignature(path: string): OnnxSignature {
  const fd = openSync(path, "r");
  try {
    const bytes = new FileBytes(fd, fstatSync(fd).size);
    const metadata = new Map<string, string>();
    let graph: Field | null = null;
    for (const field of fields(bytes, 0, bytes.size)) {
      if (field.number === 7) graph = field;
      if (field.number !== 14) continue;
      const entry = new MemoryBytes(bytes.slice(field.start, field.end));
      let key = "";
      let value = "";
      for (const part of fields(entry, 0, entry.size)) {
        if (part.number === 1) key = text(entry, part);
        if (part.number === 2) value = text(entry, part);
      }
      metadata.set(key, value);
    }
    if (graph === null) throw new NotAnOnnxModel("it has no graph");
    const initializers = new Set<string>();
    const inputs: OnnxTensorInfo[] = [];
    const outputs: OnnxTensorInfo[] = [];
    for (const field of fields(bytes, graph.start, graph.end)) {
      if (field.number === 5) {
        const name = initializerName(bytes, field.start, field.end);
        if (name !== null) initializers.add(name);
      } else if (field.number === 11 || field.number === 12) {
        const value = new MemoryBytes(bytes.slice(field.start, field.end));
        (field.number === 11 ? inputs : outputs).push(tensorInfo(value, 0, value.size));
      }
    }
    return { inputs: inputs.filter((input) => !initializers.has(input.name)), outputs, metadata };
  } finally {
    closeSync(fd);
  }
}
