/**
 * What the action-item model (action-model.ts) reads of a sentence: who it is about and how firmly (a
 * subject and its modal), whether it asks or instructs, the class of its task verb, whether it points
 * after the meeting or into it, whom it addresses, hedges, hypotheticals, conditions, questions, past or
 * reported speech, its length, where it falls in a long meeting, whether its speaker leads the meeting, the
 * lines around it (asked of just before, accepted just after, a long turn), and the phrasing rules' own
 * decision (task-timing.ts, ruleTask). Each feature is a number in 0..1; the
 * weights are learned (bench/train-actions.ts), so no rule here decides alone.
 */
import {
  CONDITION,
  DATE_WORDS,
  ERRAND_VERBS,
  FOLLOW_UP,
  HEDGES,
  LATER,
  NEGATION,
  NOW,
  OPENERS,
  PHRASAL_ERRAND,
  PROCEDURE_VERBS,
  TAG_QUESTION,
  WEAK_COMMITMENT,
} from "./lexicon.ts";
import { letUsAt, requestAt } from "./actions.ts";
import { addressedName, nameBefore } from "./names.ts";
import type { Sentence, Words } from "./nlp.ts";
import { imperativeVerb } from "./requests.ts";
import { CLOSING_SHARE, ruleTask, type RuleTask } from "./task-timing.ts";
import { commitmentEnd, hasEmptyObject, isTaskVerb, verbAfter } from "./task-verbs.ts";
import type { AnalysisInput } from "./types.ts";
import { matchesWords, unicodeWords } from "./unicode-words.ts";

export const ACTION_FEATURE_NAMES = [
  "iFirm",
  "iWeak",
  "weFirm",
  "weWeak",
  "lets",
  "youFirm",
  "youWeak",
  "nameModal",
  "theyModal",
  "request",
  "imperative",
  "errandVerb",
  "errandAnywhere",
  "procedureVerb",
  "thinkVerb",
  "followUpPhrase",
  "records",
  "later",
  "now",
  "dateWords",
  "question",
  "hedge",
  "condition",
  "negated",
  "past",
  "reported",
  "nextStep",
  "social",
  "wish",
  "hypothetical",
  "addressed",
  "askedLater",
  "ruleTask",
  "ruleFollowUp",
  "ruleTentative",
  "role",
  "closingRole",
  "position",
  "closing",
  "opening",
  "length",
  "short",
  "leadSpeaker",
  "namesParticipant",
  "commitErrand",
  "commitLater",
  "closingAssign",
  "nonTaskVerb",
  "emptyObject",
  "askedBefore",
  "acceptedAfter",
  "longTurn",
  "final",
] as const;

export type ActionFeatureName = (typeof ACTION_FEATURE_NAMES)[number];

/** What the features need of the whole conversation: its length and who leads it. */
export interface ActionContext {
  messages: number;
  /**
   * Whether the conversation is a meeting long enough for its position to say something (where work is
   * handed out); a short conversation's only line is neither an opening nor a closing.
   */
  long: boolean;
  /** The member (or name) who says the most words: the chair or project manager, who hands out work. */
  leadSpeaker: string | null;
  speakers: readonly (string | null)[];
  /** The names of the conversation's speakers, lowercased, as whole-word patterns. */
  participantNames: readonly { speaker: string; pattern: RegExp }[];
  /** Words in each message. */
  messageWords: readonly number[];
  /** Whether someone else asked something of "you" in the message before ("can you …", "would you mind …"). */
  askedBefore: readonly boolean[];
  /** Whether someone else accepts in a short reply right after ("Okay, great.", "Thanks."). */
  acceptedAfter: readonly boolean[];
}

/** The share of a long meeting before which a line is in its opening part… */
const OPENING_SHARE = 0.1;
/** …and after which it is in its last words, where work is handed out. */
const FINAL_SHARE = 0.95;
/** Conversations of at least this many messages are long enough for position features. */
export const LONG_CONVERSATION = 20;
/** Words of a message at which the long-turn feature is 1: a statement, not an exchange. */
const LONG_TURN_WORDS = 150;
/** A reply of at most this many words can accept what was just said. */
const REPLY_WORDS = 6;
/** Sentence length (words) at which the length feature is 1. */
const FULL_LENGTH = 40;
const SHORT_WORDS = 6;

/** Verbs that state a view or a wish rather than a task ("I'll see", "we should think", "you know"). */
const THINK_VERBS = new Set(
  `be see know think guess say mean like love hope agree believe suppose assume imagine remember forget
  wonder expect feel seem happen get have talk mention`.split(/\s+/),
);

/** Keeping a record of the meeting or filling in its forms: minutes, notes, summaries, questionnaires. */
const RECORDS = unicodeWords(
  /\b(?:minutes|notes|summary|summarise|summarize|questionnaire|report|transcript)\b/i,
);

/** Done already, or told about: "we ordered …", "I've sent …", "they said …". */
const PAST = unicodeWords(
  /\b(?:already|yesterday|last (?:week|time|meeting)|(?:i|we|they|he|she|you) (?:(?!(?:ne|procee|succee|excee|fe|spee)ed\b)\w+ed|sent|did|made|got|wrote|found|told|put|had|was|were)|(?:i|we|they|you)(?:'ve| have) (?:\w+ed|sent|done|made|got|written|found|told|put))\b/i,
);
const REPORTED = unicodeWords(
  /\b(?:he|she|they|it|who) (?:said|says|told|tells|wants|wanted|asked|suggested|mentioned|promised)\b/i,
);

/** How a meeting names its next work: "the next step is …", "for next time", "action items", "homework". */
const NEXT_STEP = unicodeWords(
  /\b(?:next steps?|action items?|homework|to[- ]do|assignments?|tasks? for|individual work|for next (?:time|meeting|week))\b/i,
);

/** Offers and roles inside the meeting itself: "I'll take the lunch", "I will play the secretary". */
const SOCIAL = unicodeWords(
  /\b(?:lunch|coffee|tea|drinks?|beer|dinner|party|role|secretary|chair the|mic|microphone|seat)\b/i,
);

/** A possibility rather than a task: "you could mail it to them", "we might use rubber", "it would …". */
const HYPOTHETICAL = unicodeWords(/\b(?:you|we|they|it|one|that) (?:could|might|would|may)\b/i);

/**
 * A participant named by their role, as project meetings hand out work at the close: "the industrial
 * designer to work on …", "and marketing, the user requirements".
 */
const ROLE = unicodeWords(
  /\b(?:industrial design(?:er)?|user interface|interface design(?:er)?|marketing|project manager|I_D_|U_I_D_|U_I_)\b/i,
);

/** Wishes and plans for oneself: "I want to", "we'd like to", "we hope to". */
const WISH = unicodeWords(/\b(?:want(?:s|ed)? to|wanna|would like to|'d like to|hope to|wish)\b/i);

/** "can you …", "would you like to …", "I'd like you to …", "I need you guys to …". */
const ASKED_OF = unicodeWords(
  /\b(?:(?:would|do) you (?:like|want|wanna|mind)|i(?:'d| would)? (?:like|need|want) you (?:guys |all |two |both )?to|you (?:guys )?(?:need|have) to)\b/i,
);

const ASKS_YOU = unicodeWords(/\b(?:can|could|would|will) you\b/i);
const ACCEPTS = unicodeWords(
  /\b(?:yeah|yes|yep|okay|ok|sure|great|good|fine|perfect|thanks|thank you|cool|alright|brilliant)\b/i,
);

/** The conversation-wide part of the features. */
export function actionContext(input: AnalysisInput): ActionContext {
  const speakers = input.messages.map((m) => m.memberId ?? m.speakerName);
  const words = new Map<string, number>();
  input.messages.forEach((message, i) => {
    const speaker = speakers[i];
    if (speaker === null || speaker === undefined) return;
    words.set(speaker, (words.get(speaker) ?? 0) + message.text.split(/\s+/).length);
  });
  let leadSpeaker: string | null = null;
  let most = 0;
  for (const [speaker, count] of words) {
    if (count > most) [leadSpeaker, most] = [speaker, count];
  }
  const names = new Map<string, string>();
  input.messages.forEach((message, i) => {
    const speaker = speakers[i];
    if (speaker !== null && speaker !== undefined && message.speakerName !== null)
      names.set(speaker, message.speakerName);
  });
  const participantNames = [...names].flatMap(([speaker, speakerName]) => {
    const name = speakerName.trim();
    if (name.length < 3 || !/^[\p{L}][\p{L}' ._-]*$/u.test(name)) return [];
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return [{ speaker, pattern: new RegExp(`(?:^|[^\\p{L}])${escaped}(?:$|[^\\p{L}])`, "iu") }];
  });
  const messageWords = input.messages.map((m) => m.text.split(/\s+/).filter(Boolean).length);
  const otherSpeaker = (i: number, j: number) =>
    j >= 0 && j < speakers.length && (speakers[i] ?? null) !== (speakers[j] ?? null);
  return {
    messages: input.messages.length,
    long: input.messages.length >= LONG_CONVERSATION,
    leadSpeaker,
    speakers,
    participantNames,
    messageWords,
    askedBefore: input.messages.map(
      (_, i) => otherSpeaker(i, i - 1) && matchesWords(ASKS_YOU, input.messages[i - 1]?.text ?? ""),
    ),
    acceptedAfter: input.messages.map(
      (_, i) =>
        otherSpeaker(i, i + 1) &&
        (messageWords[i + 1] ?? 0) <= REPLY_WORDS &&
        matchesWords(ACCEPTS, input.messages[i + 1]?.text ?? ""),
    ),
  };
}

/** The subject-and-modal features: which subject commits ("I'll", "we should", "Dana will") and its verb. */
interface Commitment {
  subject: "i" | "we" | "you" | "name" | "they";
  weak: boolean;
  verb: string | null;
  verbIndex: number;
}

function commitments(words: Words): Commitment[] {
  const n = words.normals;
  const found: Commitment[] = [];
  for (let i = 0; i < n.length; i++) {
    const word = n[i] ?? "";
    if (letUsAt(n, i) || word === "lets") {
      const verb = verbAfter(words, i + (word === "lets" ? 1 : 2));
      found.push({ subject: "we", weak: false, verb: verb?.verb ?? null, verbIndex: verb?.index ?? -1 });
      continue;
    }
    const end = commitmentEnd(n, i + 1);
    if (end < 0) continue;
    const subject =
      word === "i" || word === "we" || word === "you"
        ? word
        : word === "they" || word === "he" || word === "she"
          ? "they"
          : nameBefore(words, i + 1) !== null
            ? "name"
            : null;
    if (subject === null) continue;
    const verb = verbAfter(words, end);
    found.push({
      subject,
      weak: WEAK_COMMITMENT.test(n.slice(i + 1, end).join(" ")),
      verb: verb?.verb ?? null,
      verbIndex: verb?.index ?? -1,
    });
  }
  return found;
}

/** "can you send …", "could you please check …" (not "if you could …", not "what will you use?"). */
function isRequest(sentence: Sentence, words: Words): boolean {
  const n = words.normals;
  if (matchesWords(ASKED_OF, sentence.text)) return true;
  for (let i = 0; i + 1 < n.length; i++) if (requestAt(n, i)) return true;
  return n.includes("if") && n.includes("you") && addressedName(sentence) !== null;
}

function isErrand(words: Words, index: number): boolean {
  return (
    ERRAND_VERBS.has(words.normals[index] ?? "") ||
    PHRASAL_ERRAND.test(words.normals.slice(index, index + 2).join(" "))
  );
}

const flag = (value: boolean): number => (value ? 1 : 0);

/** The phrasing rules' verdict on a sentence (task-timing.ts), read where it falls in the conversation. */
export function ruleVerdict(sentence: Sentence, words: Words, context: ActionContext): RuleTask {
  const closing = context.long && sentence.messageIndex / (context.messages - 1) >= CLOSING_SHARE;
  return ruleTask(sentence, words, { closing });
}

/**
 * Where the phrasing rules' verdict stands beside the model's, as the model has not learned the case, the
 * least probability it gives the sentence (0 where it does not stand):
 * - any task the rules find in a conversation shorter than LONG_CONVERSATION lines. The model learned on
 *   meetings of 91 to 1,832 lines, where "let's …" and "we'll …" are mostly the meeting's own procedure
 *   (2 of 101 "let's" sentences state a task); a short chat has no such meeting around it.
 * - a task the rules give to a named person, or ask of someone ("can you …"), with a time after the meeting
 *   ("Carol, can you ask finance for the tax tables by Thursday?", "Dana will send the prices by Friday",
 *   "Can you check by Monday whether the charger fits?"). QMSum's meetings rarely name people or ask for
 *   work by a date (its 162 train meetings hold 8 such named tasks and 1 such request), so the model cannot
 *   learn how strong this is; a conversation that does is taken at its word.
 */
export function rulesStand(
  rule: RuleTask,
  sentence: Sentence,
  context: ActionContext,
  threshold: number,
): number {
  const asked = rule.action?.assignee?.kind === "name" || rule.action?.request === true;
  // A task taken at its word is a sure one: midway between the model's threshold and certainty.
  if (asked && matchesWords(LATER, sentence.text)) return (1 + threshold) / 2;
  return !context.long && (rule.action !== null || rule.followUp) ? threshold : 0;
}

/** Fewer words say too little to act on ("Let's do digits."); more are no insight (insights.ts). */
const MIN_TASK_WORDS = 5;
const MAX_TASK_WORDS = 100;

/**
 * Whether a sentence is one the model scores: 5 to 100 words, spoken openers not counted ("Yeah, but I'll
 * zap." says three).
 */
export function mayStateTask(words: Words): boolean {
  const n = words.normals;
  if (n.length > MAX_TASK_WORDS) return false;
  const said = n.length - n.findIndex((w) => !OPENERS.has(w) && w !== "yes");
  return said >= MIN_TASK_WORDS && said <= n.length;
}

/**
 * The words and word pairs a sentence says (normal forms: "will" for "'ll"), from which the action model
 * weighs those it learned (ActionModel.phrases: "minutes", "i will", "next week").
 */
export function sentencePhrases(words: Words): Set<string> {
  const n = words.normals;
  const phrases = new Set(n);
  for (let i = 0; i + 1 < n.length; i++) phrases.add(`${n[i]} ${n[i + 1]}`);
  return phrases;
}

/** The features of one sentence (ACTION_FEATURE_NAMES order). */
export function actionFeatures(
  sentence: Sentence,
  words: Words,
  context: ActionContext,
  rule: RuleTask = ruleVerdict(sentence, words, context),
): number[] {
  const text = sentence.text;
  const n = words.normals;
  const found = commitments(words);
  const has = (subject: Commitment["subject"], weak: boolean) =>
    found.some((c) => c.subject === subject && c.weak === weak);
  const lets = n.some((w, i) => letUsAt(n, i) || w === "lets");
  const imperative = imperativeVerb(sentence, words);
  // The task verb: the first committed-to verb, else the instruction's.
  const task = found.find((c) => c.verb !== null) ?? null;
  const verbIndex = task?.verbIndex ?? imperative?.index ?? -1;
  const verb = task?.verb ?? imperative?.verb ?? null;
  // Someone takes on or is given the task: a commitment of a person or the group, a request, an instruction.
  const committed = found.some((c) => c.subject !== "they") || lets || imperative !== null;
  const assigned = found.some((c) => c.subject === "you" || c.subject === "name") || imperative !== null;
  const position = context.long ? sentence.messageIndex / (context.messages - 1) : 0;
  const closing = context.long && position >= CLOSING_SHARE;
  const request = isRequest(sentence, words);
  const addressed = addressedName(sentence) !== null;
  const speaker = context.speakers[sentence.messageIndex] ?? null;
  const later = matchesWords(LATER, text);
  const role = matchesWords(ROLE, text);
  const features: Record<ActionFeatureName, number> = {
    iFirm: flag(has("i", false)),
    iWeak: flag(has("i", true)),
    weFirm: flag(has("we", false)),
    weWeak: flag(has("we", true)),
    lets: flag(lets),
    youFirm: flag(has("you", false)),
    youWeak: flag(has("you", true)),
    nameModal: flag(found.some((c) => c.subject === "name")),
    theyModal: flag(found.some((c) => c.subject === "they")),
    request: flag(request),
    imperative: flag(imperative !== null),
    errandVerb: flag(verbIndex >= 0 && isErrand(words, verbIndex)),
    errandAnywhere: flag(n.some((_, i) => words.tokens[i]?.pos === "VERB" && isErrand(words, i))),
    procedureVerb: flag(verb !== null && PROCEDURE_VERBS.has(verb)),
    thinkVerb: flag(verb !== null && THINK_VERBS.has(verb)),
    followUpPhrase: flag(matchesWords(FOLLOW_UP, text)),
    records: flag(matchesWords(RECORDS, text)),
    later: flag(later),
    now: flag(matchesWords(NOW, text)),
    dateWords: flag(matchesWords(DATE_WORDS, text)),
    question: flag(text.trim().endsWith("?") && !TAG_QUESTION.test(text.trim())),
    hedge: flag(matchesWords(HEDGES, text)),
    condition: flag(matchesWords(CONDITION, text) || n[0] === "when"),
    negated: flag(n.some((w) => NEGATION.has(w))),
    past: flag(matchesWords(PAST, text)),
    reported: flag(matchesWords(REPORTED, text)),
    nextStep: flag(matchesWords(NEXT_STEP, text)),
    social: flag(matchesWords(SOCIAL, text)),
    wish: flag(matchesWords(WISH, text)),
    // Said to nobody in particular: "marketing, you could find out …" at the close hands out work.
    hypothetical: flag(matchesWords(HYPOTHETICAL, text) && !request && !addressed && !closing),
    addressed: flag(addressed),
    askedLater: flag((assigned || request) && later),
    ruleTask: flag(rule.action !== null || rule.followUp),
    ruleFollowUp: flag(rule.followUp),
    ruleTentative: flag(rule.action?.tentative === true),
    role: flag(role),
    closingRole: flag(closing && role),
    position,
    closing: flag(closing),
    opening: flag(context.long && position < OPENING_SHARE),
    length: Math.min(1, n.length / FULL_LENGTH),
    short: flag(n.length < SHORT_WORDS),
    leadSpeaker: flag(speaker !== null && speaker === context.leadSpeaker),
    namesParticipant: flag(
      context.participantNames.some((p) => p.speaker !== speaker && p.pattern.test(text)),
    ),
    commitErrand: flag(committed && verbIndex >= 0 && isErrand(words, verbIndex)),
    commitLater: flag(committed && later),
    closingAssign: flag(closing && (assigned || request)),
    nonTaskVerb: flag(verb !== null && !isTaskVerb(words, { verb, index: verbIndex })),
    emptyObject: flag(verbIndex >= 0 && hasEmptyObject(words, verbIndex)),
    askedBefore: flag(context.askedBefore[sentence.messageIndex] === true),
    acceptedAfter: flag(context.acceptedAfter[sentence.messageIndex] === true),
    longTurn: Math.min(1, (context.messageWords[sentence.messageIndex] ?? 0) / LONG_TURN_WORDS),
    final: flag(context.long && position >= FINAL_SHARE),
  };
  return ACTION_FEATURE_NAMES.map((name) => features[name]);
}
