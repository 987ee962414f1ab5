/** Sparse term vectors and TF-IDF over sentences or segments. */
export type TermVector = Map<string, number>;

/** Inverse document frequency, smoothed: log((1 + n) / (1 + df)) + 1. */
export function inverseDocumentFrequency(documents: readonly (readonly string[])[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const terms of documents) for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
  const n = documents.length;
  const idf = new Map<string, number>();
  for (const [term, count] of df) idf.set(term, Math.log((1 + n) / (1 + count)) + 1);
  return idf;
}

/** Term counts of a list of terms. */
export function termCounts(terms: readonly string[]): TermVector {
  const counts: TermVector = new Map();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** TF-IDF vector with sublinear term frequency (1 + log tf). */
export function tfidfVector(terms: readonly string[], idf: ReadonlyMap<string, number>): TermVector {
  const vector: TermVector = new Map();
  for (const [term, count] of termCounts(terms))
    vector.set(term, (1 + Math.log(count)) * (idf.get(term) ?? 1));
  return vector;
}

const norms = new WeakMap<TermVector, number>();

/** Euclidean norm, remembered per vector object (vectors are not changed once built). */
export function norm(vector: TermVector): number {
  let cached = norms.get(vector);
  if (cached === undefined) {
    let sum = 0;
    for (const value of vector.values()) sum += value * value;
    cached = Math.sqrt(sum);
    norms.set(vector, cached);
  }
  return cached;
}

/** Cosine similarity; 0 when either vector is empty. */
export function cosine(a: TermVector, b: TermVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, value] of small) {
    const other = large.get(term);
    if (other !== undefined) dot += value * other;
  }
  if (dot === 0) return 0;
  return dot / (norm(a) * norm(b));
}
