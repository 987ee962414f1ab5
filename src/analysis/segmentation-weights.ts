/**
 * Learned weights of the chapter-start score, one per feature of segmentation.ts (BOUNDARY_FEATURES order).
 * Written by `node --import tsx bench/tune-segments.ts --write` from QMSum train; do not edit by hand.
 */
export const SEGMENTATION_WEIGHTS: readonly number[] = [
  1.7215, // lexicalDepth
  2.6357, // lexicalDepthFine
  1.4065, // speakerDepth
  1.4973, // speakerDepthFine
  1.3757, // movesOn
  1.5177, // movesOnNear
  0.0974, // mainSpeaker
  0.0821, // length
  0.0257, // previousLength
  -0.6813, // nearEdge
];
