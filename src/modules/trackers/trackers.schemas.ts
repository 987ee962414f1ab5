import { Type, type Static } from "typebox";

export const MAX_TRACKERS_PER_APP = 500;

const Phrase = Type.String({
  minLength: 1,
  maxLength: 300,
  pattern: "^[\\p{L}\\p{N}][\\p{L}\\p{N} .'’-]*$",
  description: "letters, digits, spaces, periods, apostrophes and hyphens, starting with a letter or a digit",
});

const TrackerName = Type.String({ minLength: 1, maxLength: 200 });
const Vocabulary = Type.Array(Phrase, { minItems: 1, maxItems: 50, uniqueItems: true });

export const TrackerBody = Type.Object(
  { name: TrackerName, vocabulary: Vocabulary },
  { additionalProperties: false },
);
export type TrackerBody = Static<typeof TrackerBody>;

/** PUT's body: Symbl's clients send the tracker's id back with it. */
export const UpdateTrackerBody = Type.Object(
  { id: Type.Optional(Type.String({ maxLength: 64 })), name: TrackerName, vocabulary: Vocabulary },
  { additionalProperties: false },
);
export type UpdateTrackerBody = Static<typeof UpdateTrackerBody>;

export const TrackerBodies = Type.Array(TrackerBody, { minItems: 1, maxItems: 100 });

export const TrackerParams = Type.Object({ trackerId: Type.String({ maxLength: 64 }) });
export const TrackerQuery = Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })) });

export const Tracker = Type.Object({
  id: Type.String(),
  name: Type.String(),
  vocabulary: Type.Array(Type.String()),
});
export const TrackerAnswer = Type.Object({ tracker: Tracker });
export const TrackerList = Type.Object({ trackers: Type.Array(Tracker) });
export const TrackerDeleted = Type.Object({
  id: Type.String(),
  type: Type.Literal("tracker"),
  deleted: Type.Literal(true),
});

const Ref = { id: Type.String(), text: Type.String(), offset: Type.Integer() };
export const DetectedTrackers = Type.Array(
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    matches: Type.Array(
      Type.Object({
        type: Type.Literal("vocabulary"),
        value: Type.String({ description: "the phrase of the tracker's vocabulary that matched" }),
        messageRefs: Type.Array(Type.Object(Ref)),
        insightRefs: Type.Array(Type.Object({ ...Ref, type: Type.String() })),
      }),
    ),
  }),
  { description: "the app's trackers with a match in the conversation, as they are now" },
);
