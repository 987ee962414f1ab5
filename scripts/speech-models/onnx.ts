/**
 * A writer for the part of the ONNX format the generated speech models use (onnx.proto: ModelProto, GraphProto,
 * NodeProto, AttributeProto, TensorProto, ValueInfoProto, metadata_props), encoded straight to the protobuf
 * wire format. It writes what onnxruntime reads; it is no general ONNX library.
 */

export type Attribute =
  { int: number } | { ints: number[] } | { float: number } | { floats: number[] } | { string: string };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, Attribute>;
}

/** A tensor of 32-bit floats or of 32- or 64-bit integers, held as an initializer. */
export interface OnnxTensor {
  name: string;
  dims: number[];
  data: Float32Array | Int32Array | BigInt64Array;
}

/** A graph input or output; a string dimension is symbolic (`N`, `T`). */
export interface OnnxValue {
  name: string;
  type: "float" | "int32" | "int64";
  shape: (number | string)[];
}

export interface OnnxModel {
  nodes: OnnxNode[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  initializers?: OnnxTensor[];
  /** The custom metadata sherpa-onnx's loaders read (`model_type`, `window_size`, …). */
  metadata?: Record<string, string | number>;
  opset?: number;
}

const ELEMENT_TYPE = { float: 1, int32: 6, int64: 7 } as const;
const ATTRIBUTE_TYPE = { float: 1, int: 2, string: 3, floats: 6, ints: 7 } as const;

/** Protobuf's wire format, appended to one growing byte list. */
class Writer {
  private readonly bytes: number[] = [];

  varint(value: number | bigint): this {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.bytes.push(Number(v));
    return this;
  }

  tag(field: number, wireType: 0 | 1 | 2 | 5): this {
    return this.varint((field << 3) | wireType);
  }

  int(field: number, value: number | bigint): this {
    return this.tag(field, 0).varint(value);
  }

  float(field: number, value: number): this {
    const buffer = new DataView(new ArrayBuffer(4));
    buffer.setFloat32(0, value, true);
    this.tag(field, 5);
    for (let i = 0; i < 4; i++) this.bytes.push(buffer.getUint8(i));
    return this;
  }

  bytesField(field: number, value: Uint8Array): this {
    this.tag(field, 2).varint(value.length);
    for (const byte of value) this.bytes.push(byte);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytesField(field, new TextEncoder().encode(value));
  }

  message(field: number, write: (writer: Writer) => void): this {
    const inner = new Writer();
    write(inner);
    return this.bytesField(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

function writeTensor(w: Writer, tensor: OnnxTensor): void {
  for (const dim of tensor.dims) w.int(1, dim);
  const type =
    tensor.data instanceof Float32Array ? "float" : tensor.data instanceof Int32Array ? "int32" : "int64";
  w.int(2, ELEMENT_TYPE[type]);
  w.string(8, tensor.name);
  w.bytesField(9, new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
}

function writeAttribute(w: Writer, name: string, attribute: Attribute): void {
  w.string(1, name);
  if ("int" in attribute) w.int(3, attribute.int).int(20, ATTRIBUTE_TYPE.int);
  else if ("float" in attribute) w.float(2, attribute.float).int(20, ATTRIBUTE_TYPE.float);
  else if ("string" in attribute) w.string(4, attribute.string).int(20, ATTRIBUTE_TYPE.string);
  else if ("floats" in attribute) {
    for (const value of attribute.floats) w.float(7, value);
    w.int(20, ATTRIBUTE_TYPE.floats);
  } else {
    for (const value of attribute.ints) w.int(8, value);
    w.int(20, ATTRIBUTE_TYPE.ints);
  }
}

function writeValue(w: Writer, value: OnnxValue): void {
  w.string(1, value.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, ELEMENT_TYPE[value.type]);
      tensor.message(2, (shape) => {
        for (const dim of value.shape)
          shape.message(1, (d) => (typeof dim === "number" ? d.int(1, dim) : d.string(2, dim)));
      });
    }),
  );
}

/** The model's bytes, ready to write to a `.onnx` file. */
export function encodeOnnxModel(model: OnnxModel): Uint8Array {
  const w = new Writer();
  w.int(1, 8); // ir_version 8: what onnxruntime 1.x reads for opsets up to 18
  w.string(2, "recap-generated");
  w.message(7, (graph) => {
    model.nodes.forEach((node, index) =>
      graph.message(1, (n) => {
        for (const input of node.inputs) n.string(1, input);
        for (const output of node.outputs) n.string(2, output);
        n.string(3, `${node.op}_${index}`);
        n.string(4, node.op);
        for (const [name, attribute] of Object.entries(node.attributes ?? {}))
          n.message(5, (a) => writeAttribute(a, name, attribute));
      }),
    );
    graph.string(2, "recap_generated_graph");
    for (const tensor of model.initializers ?? []) graph.message(5, (t) => writeTensor(t, tensor));
    for (const input of model.inputs) graph.message(11, (v) => writeValue(v, input));
    for (const output of model.outputs) graph.message(12, (v) => writeValue(v, output));
  });
  w.message(8, (opset) => opset.string(1, "").int(2, model.opset ?? 13));
  for (const [key, value] of Object.entries(model.metadata ?? {}))
    w.message(14, (entry) => entry.string(1, key).string(2, String(value)));
  return w.finish();
}

/**
 * Builds a graph a node at a time: each `op` names its output after the operator and hands the name back, so
 * a model reads as the computation it is. `constant` adds an initializer the same way.
 */
export class GraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxTensor[] = [];
  private count = 0;

  /** Adds a node with one output, named `output` (a graph output) or after the operator. */
  op(op: string, inputs: string[], attributes?: Record<string, Attribute>, output?: string): string {
    const name = output ?? `${op.toLowerCase()}_${this.count++}`;
    this.nodes.push({ op, inputs, outputs: [name], ...(attributes && { attributes }) });
    return name;
  }

  /** An initializer of floats, or of 64-bit integers from a BigInt64Array. */
  constant(data: Float32Array | BigInt64Array | number[], dims: number[] = [data.length]): string {
    const name = `constant_${this.count++}`;
    this.initializers.push({ name, dims, data: Array.isArray(data) ? Float32Array.from(data) : data });
    return name;
  }

  /** A constant of 64-bit integers: the shapes, axes and indices operators take as inputs. */
  ints(values: number[], dims: number[] = [values.length]): string {
    return this.constant(BigInt64Array.from(values.map(BigInt)), dims);
  }
}
