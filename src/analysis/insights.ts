import type { InsightType } from "./types.ts";
import type { Sentence, Token } from "./nlp.ts";
import { tidySentence } from "./summary.ts";

/** What the rules found in one sentence, before ids and dates are attached. */
export interface SentenceInsight {
  type: InsightType;
  text: string;
  score: number;
  /** "speaker" for first-person commitments, a name as written, or null (group or unknown). */
  assignee: { kind: "speaker" } | { kind: "name"; name: string } | null;
}

const WH_WORDS = new Set(["what", "why", "how", "when", "where", "who", "whom", "whose", "which"]);
const AUX_STARTS = new Set([
  "do",
  "does",
  "did",
  "is",
  "are",
  "was",
  "were",
  "can",
  "could",
  "will",
  "would",
  "should",
  "shall",
  "may",
  "might",
  "have",
  "has",
  "had",
  "am",
]);
const SUBJECT_PRONOUNS = new Set([
  "everyone",
  "everybody",
  "anybody",
  "somebody",
  "someone",
  "those",
  "these",
  "i",
  "you",
  "we",
  "he",
  "she",
  "it",
  "they",
  "there",
  "this",
  "that",
  "anyone",
]);

/** Verbs that follow "I will", "we should", "let's" without making a task ("we'll see", "let's say"). */
const NON_TASK_VERBS = new Set([
  "be",
  "see",
  "know",
  "think",
  "guess",
  "say",
  "mean",
  "like",
  "love",
  "want",
  "wish",
  "hope",
  "agree",
  "believe",
  "suppose",
  "assume",
  "imagine",
  "remember",
  "forget",
  "hear",
  "wait",
  "pass",
  "stop",
  "leave",
  "move",
  "begin",
  "start",
  "go",
  "come",
  "continue",
  "proceed",
  "recap",
  "keep",
  "put",
  "call",
  "end",
  "finish",
  "happen",
  "seem",
  "feel",
  "get",
  "have",
  "talk",
  "mention",
  "note",
  "add",
  "point",
  "answer",
  "ask",
  "thank",
  "wrap",
  "skip",
  "bear",
  "deal",
  "admit",
  "spoil",
  "allow",
  "pause",
  "resume",
  "freeze",
  "expect",
  "wonder",
]);

/** Words a cut-off sentence ends on ("I'll rerun it with", "You should just give it to."). */
const DANGLING_ENDS = new Set([
  "the",
  "a",
  "an",
  "and",
  "or",
  "but",
  "of",
  "with",
  "to",
  "for",
  "from",
  "at",
  "by",
  "into",
  "about",
  "than",
  "that",
  "because",
  "if",
  "my",
  "our",
  "your",
  "their",
  "his",
  "its",
  "is",
  "are",
  "was",
  "i",
  "we",
  "they",
  "he",
  "she",
  "very",
]);

/** Objects that say nothing on their own: "let's take it", "can you read that?". */
const EMPTY_OBJECTS = new Set([
  "it",
  "that",
  "this",
  "them",
  "those",
  "these",
  "one",
  "so",
  "too",
  "now",
  "then",
  "here",
  "there",
  "again",
  "please",
  "better",
  "well",
  "more",
]);

/** Words a fragment opens with rather than a question ("That we're starting so well?", "To just go order?"). */
const FRAGMENT_STARTS = new Set([
  "that",
  "to",
  "if",
  "unless",
  "because",
  "cause",
  "for",
  "within",
  "as",
  "like",
  "than",
  "where",
  "whereas",
]);

/** Modal phrases that turn "I"/"we"/"you"/a name into someone committing to (or being asked for) a task. */
const COMMITMENT =
  /^(?:will|shall|must|should|(?:am|are|is) going to|(?:have|has|need|needs|ought) to|got to|'ve got to|have got to)$/;

/** First words of every COMMITMENT phrase (wink's normal forms: "'ll" → "will", "'ve" → "have"). */
const COMMITMENT_FIRST_WORDS = new Set([
  "will",
  "shall",
  "must",
  "should",
  "am",
  "are",
  "is",
  "have",
  "has",
  "need",
  "needs",
  "ought",
  "got",
  "'ve",
]);

const MAX_ACTION_WORDS = 45;
const MIN_ACTION_WORDS = 5;

const REQUEST_MODALS = new Set(["can", "could", "would", "will"]);

const HEDGES = /\b(?:maybe|perhaps|probably|possibly|i think|i guess|i suppose|might|if)\b/i;
const NEGATION = new Set(["not", "n't", "never", "no"]);
const RELATIVE = new Set(["that", "which", "what", "who", "where", "how", "whatever"]);

/** Back-channel and tag questions: "right?", "you know?", "isn't it?", "sorry?". */
const TAG_QUESTION =
  /(?:^|[\s,])(?:right|yeah|yes|okay|ok|huh|eh|no|sorry|really|you know|you see|isn't it|is it|aren't they|don't you think|didn't it|wasn't it|doesn't it|or not|or something|and so on|what)\s*\?$/i;

/** Phrases that promise a later exchange rather than a piece of work. */
const FOLLOW_UP =
  /\b(?:follow(?:ing)?[\s-]up|get back to|circle back|touch base|check (?:back )?with|reach out|let (?:you|him|her|them|everyone|everybody|us) know|(?:send|e-?mail|forward|mail) (?:it |that |this |them )?(?:to )?(?:you|him|her|them|everyone|everybody|round|around|out)\b|(?:talk|discuss|speak|chat) (?:about (?:it|that|this) )?(?:later|offline|after the meeting|next (?:time|meeting|week))|(?:in|at|for|before) the next meeting|next meeting|(?:do|take|discuss) (?:this|that|it) off-?line)\b/i;

const WORD = /[a-z0-9]/i;

interface Words {
  /** Word tokens only (no punctuation), lowercase normal forms. */
  normals: string[];
  tokens: Token[];
}

function wordsOf(sentence: Sentence): Words {
  const tokens = sentence.tokens.filter((t) => WORD.test(t.value));
  // wink normalises "'ll" to "will" and "n't" to "not"; keep "'s" etc. as written.
  return { tokens, normals: tokens.map((t) => t.normal) };
}

/** Index just after a commitment phrase starting at i ("will", "am going to", "need to"), or -1. */
function commitmentEnd(normals: readonly string[], i: number): number {
  // Most words start no commitment phrase; skip them before building the phrases.
  if (!COMMITMENT_FIRST_WORDS.has(normals[i] ?? "")) return -1;
  for (let length = 3; length >= 1; length--) {
    const phrase = normals.slice(i, i + length).join(" ");
    if (normals.length >= i + length && COMMITMENT.test(phrase)) return i + length;
  }
  return -1;
}

/** The main verb after a commitment, skipping adverbs ("will just quickly send"); null when none. */
function verbAfter(words: Words, from: number): { verb: string; index: number } | null {
  for (let i = from; i < Math.min(words.tokens.length, from + 3); i++) {
    const token = words.tokens[i];
    if (token === undefined) return null;
    if (NEGATION.has(token.normal)) return null;
    if (token.pos === "ADV" || token.pos === "PART") continue;
    if (token.pos === "VERB" || (token.pos === "AUX" && token.normal === "do")) {
      return { verb: token.normal, index: i };
    }
    return null;
  }
  return null;
}

/** Words between a wh-word and its verb: "how many", "what else", "which ones", "what time". */
const WH_MODIFIER_POS = new Set(["ADJ", "ADV", "NOUN", "NUM"]);

/** True when a clause opens like a question: "do you …", "is it …", "what do …", "who wants …". */
function opensQuestion(tokens: readonly Token[], at: number): boolean {
  const first = tokens[at]?.normal ?? "";
  const second = tokens[at + 1]?.normal ?? "";
  // "do you …", "are those delays …", "is the hand-held …", "isn't it …"
  const subjectAt = second === "not" ? at + 2 : at + 1;
  const subject = tokens[subjectAt];
  const subjectWord = subject?.normal ?? "";
  // A clause that stops at its subject is a tag ("…, isn't it?"), not a question of its own.
  if (
    AUX_STARTS.has(first) &&
    tokens[subjectAt + 1] !== undefined &&
    (SUBJECT_PRONOUNS.has(subjectWord) ||
      (subject?.pos === "DET" && subjectWord !== "a" && subjectWord !== "an"))
  )
    return true;
  if (!WH_WORDS.has(first)) return false;
  // "what do you …", "who wants …", "how many are there", "what else does it need"; not "what we're aiming
  // to do is …" (a pronoun before the verb makes it a statement).
  for (let i = at + 1; i <= at + 3; i++) {
    const token = tokens[i];
    if (token === undefined) return false;
    if (AUX_STARTS.has(token.normal) || token.normal === "'s" || token.pos === "VERB") return true;
    if (!WH_MODIFIER_POS.has(token.pos)) return false;
  }
  return false;
}

/**
 * A statement or fragment said with a rising tone rather than a question a reader can act on: no verb
 * ("Brightness and contrast?"), a dangling "or?", a subordinate opening ("That we're starting so well?"),
 * a wh-word used as a relative ("Where you can activate it?") or under six words ("You do it higher?").
 */
function isHalfStatement(words: Words): boolean {
  const n = words.normals.slice(openerLength(words.normals));
  if (n.length < 6) return true;
  if (!words.tokens.some((t) => t.pos === "VERB" || t.pos === "AUX")) return true;
  if (n[n.length - 1] === "or") return true;
  // "What if …" and "how about …" ask; other wh-words without an inverted verb are relatives.
  if (WH_WORDS.has(n[0] ?? "")) return n[1] !== "if" && n[1] !== "about";
  return FRAGMENT_STARTS.has(n[0] ?? "");
}

/** Spoken openers before a clause ("so", "okay", "and", "or"), which tidySentence mostly drops too. */
const OPENERS = new Set([
  "so",
  "or",
  "and",
  "but",
  "okay",
  "ok",
  "yeah",
  "yes",
  "well",
  "right",
  "now",
  "then",
  "also",
  "alright",
  "oh",
  "anyway",
  "actually",
  "hey",
]);

function openerLength(normals: readonly string[]): number {
  let i = 0;
  while (i < normals.length - 1 && OPENERS.has(normals[i] ?? "")) i++;
  return i;
}

function isQuestion(sentence: Sentence, words: Words): { question: boolean; strong: boolean } {
  const text = sentence.text.trim();
  if (words.normals.length < 4) return { question: false, strong: false };
  // Clause starts: the sentence start (after spoken openers: "So does that make sense?") and every word
  // after a comma ("What about the pens, did you …").
  let strong = opensQuestion(words.tokens, openerLength(words.normals));
  for (let i = 1; i < sentence.tokens.length && !strong; i++) {
    if (sentence.tokens[i - 1]?.value === ",") {
      const at = words.tokens.indexOf(sentence.tokens[i] as Token);
      if (at >= 0) strong = opensQuestion(words.tokens, at + openerLength(words.normals.slice(at)));
    }
  }
  const marked = text.endsWith("?");
  if (marked && TAG_QUESTION.test(text) && !strong) return { question: false, strong: false };
  if (/^(?:you know what i mean|do you know what i mean|you see what i mean)\b/i.test(text)) {
    return { question: false, strong: false };
  }
  if (marked && !strong && isHalfStatement(words)) return { question: false, strong: false };
  // Without a "?", only an inverted start ("do you know where …") reads as a question.
  const first = words.normals[0] ?? "";
  const inverted = AUX_STARTS.has(first) && SUBJECT_PRONOUNS.has(words.normals[1] ?? "");
  return { question: marked || (inverted && words.normals.length >= 5), strong };
}

/** A capitalised name right before position i ("Dana will …"), skipping sentence-initial pronouns. */
function nameBefore(words: Words, i: number): string | null {
  const token = words.tokens[i - 1];
  if (token === undefined || token.pos !== "PROPN" || !/^[A-Z][a-z]+$/.test(token.value)) return null;
  if (NOT_NAMES.test(token.value)) return null;
  const before = words.tokens[i - 2];
  if (before !== undefined && before.pos === "PROPN" && /^[A-Z][a-z]+$/.test(before.value)) {
    return `${before.value} ${token.value}`;
  }
  return token.value;
}

const NOT_NAMES =
  /^(?:I|Okay|Ok|Yeah|Yes|No|Oh|So|Well|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)$/;

/** A vocative name in a request: "Dana, can you …", "… by Friday, Sam?" (next to a comma or the end). */
function addressedName(sentence: Sentence): string | null {
  const tokens = sentence.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined || token.pos !== "PROPN" || !/^[A-Z][a-z]+$/.test(token.value)) continue;
    if (NOT_NAMES.test(token.value)) continue;
    const before = tokens[i - 1]?.value;
    const after = tokens[i + 1]?.value;
    if (
      (i === 0 || before === ",") &&
      (after === "," || after === "?" || after === "." || after === undefined)
    ) {
      return token.value;
    }
    if (before === "," && (after === "?" || after === "." || after === undefined)) return token.value;
  }
  return null;
}

function clamp(score: number): number {
  return Math.round(Math.min(0.99, Math.max(0.05, score)) * 100) / 100;
}

/** Finds a task stated in the sentence: who does it and how firmly it was said, or null. */
function findAction(
  sentence: Sentence,
  words: Words,
): { score: number; assignee: SentenceInsight["assignee"]; request: boolean } | null {
  const n = words.normals;
  const lower = sentence.text.toLowerCase();
  const hedge = HEDGES.test(lower) ? 0.75 : 1;
  // Conditions ("If we wanna use …, you can buy …") and long monologues are not task statements.
  const conditional = n[0] === "if" || n[0] === "unless" || n.length > MAX_ACTION_WORDS;
  // A cut-off sentence ("I'll rerun it with") does not say what the task is.
  if (DANGLING_ENDS.has(n[n.length - 1] ?? "")) return null;
  for (let i = 0; i < n.length; i++) {
    const word = n[i] ?? "";
    // "let's send", "let us fix"
    if (conditional) break;
    if (word === "let" && (n[i + 1] === "'s" || n[i + 1] === "us" || n[i + 1] === "s")) {
      const verb = verbAfter(words, i + 2);
      if (verb !== null && !NON_TASK_VERBS.has(verb.verb) && !hasEmptyObject(words, verb.index))
        return { score: 0.6 * hedge, assignee: null, request: false };
      continue;
    }
    const end = commitmentEnd(n, i + 1);
    if (end < 0) continue;
    // "I don't think we should …", "that we're going to use" (a relative clause, not a commitment)
    if (n.slice(Math.max(0, i - 3), i).some((w) => NEGATION.has(w))) continue;
    if (i > 0 && RELATIVE.has(n[i - 1] ?? "")) continue;
    if (isReducedRelative(words, i)) continue;
    const verb = verbAfter(words, end);
    if (verb === null || NON_TASK_VERBS.has(verb.verb)) continue;
    if (word === "i") return { score: 0.8 * hedge, assignee: { kind: "speaker" }, request: false };
    // Others' tasks must say what the task is on: "we must do better", "you have to push it" do not.
    if (hasEmptyObject(words, verb.index)) continue;
    if (word === "we") return { score: 0.65 * hedge, assignee: null, request: false };
    if (word === "you") {
      if (n[0] === "if" || n[0] === "when") continue;
      const addressee = addressedName(sentence);
      // "You have to choose the code": the generic "you" of a description, unless someone is addressed.
      if (addressee === null && GENERIC_OBLIGATION.test(n.slice(i + 1, end).join(" "))) continue;
      return { score: 0.6 * hedge, assignee: nameOrNull(addressee), request: false };
    }
    const name = nameBefore(words, i + 1);
    if (name !== null) return { score: 0.8 * hedge, assignee: { kind: "name", name }, request: false };
  }
  // Requests: "can you send …", "Dana, could you please check …"
  for (let i = 0; i + 1 < n.length; i++) {
    if (!REQUEST_MODALS.has(n[i] ?? "") || n[i + 1] !== "you") continue;
    // "if you could …", "what you would …" are not requests.
    if (i > 0 && /^(?:if|that|whether|what|how|when|which|who|where|so that|unless)$/.test(n[i - 1] ?? ""))
      continue;
    // "What performance measures will you use?", "how much would you pay?" ask for information.
    if (n.slice(Math.max(0, i - 3), i).some((w) => WH_WORDS.has(w))) continue;
    const verb = verbAfter(words, i + 2);
    if (verb !== null && !NON_TASK_VERBS.has(verb.verb) && !hasEmptyObject(words, verb.index)) {
      return { score: 0.6 * hedge, assignee: nameOrNull(addressedName(sentence)), request: true };
    }
  }
  return null;
}

/** Obligations that, said to an unnamed "you", describe how things work rather than ask for a task. */
const GENERIC_OBLIGATION = /^(?:have to|'ve got to|have got to|got to|must)$/;

/** True when nothing after the task verb says what it is done to ("let's take it", "can you read that?"). */
function hasEmptyObject(words: Words, verbIndex: number): boolean {
  // A verb that ends the sentence is its own content: "we ought to standardize".
  if (verbIndex + 1 >= words.tokens.length) return false;
  for (let i = verbIndex + 1; i < words.tokens.length; i++) {
    const token = words.tokens[i];
    if (token === undefined) break;
    if (!EMPTY_OBJECTS.has(token.normal) && token.pos !== "PRON" && token.pos !== "DET") return false;
  }
  return true;
}

/** A subject right after "the <noun>" is a relative clause without "that": "the angle you have to use". */
function isReducedRelative(words: Words, subject: number): boolean {
  const noun = words.tokens[subject - 1];
  const before = words.tokens[subject - 2];
  return noun?.pos === "NOUN" && (before?.pos === "DET" || before?.pos === "ADJ");
}

/** "I'll …", "I can …", "I will …": the speaker promises something, whatever the verb. */
function speakerCommitment(words: Words): SentenceInsight["assignee"] {
  const n = words.normals;
  for (let i = 0; i + 1 < n.length; i++) {
    if (n[i] === "i" && (commitmentEnd(n, i + 1) > 0 || n[i + 1] === "can")) return { kind: "speaker" };
  }
  return null;
}

function nameOrNull(name: string | null): SentenceInsight["assignee"] {
  return name === null ? null : { kind: "name", name };
}

/**
 * Classifies one sentence as a follow-up, an action item or a question (in that order of precedence),
 * or null. Rules over wink POS tags; scores are rule confidences in 0..1.
 */
export function classifySentence(sentence: Sentence): SentenceInsight | null {
  const words = wordsOf(sentence);
  if (words.normals.length < 4) return null;
  const text = tidySentence(sentence.text.trim());
  const question = isQuestion(sentence, words);
  const found = findAction(sentence, words);
  // "Do you have to hand it around?" asks about an obligation; only requests are both.
  const action = found !== null && question.strong && !found.request ? null : found;
  const dated =
    /\b(?:by|before|until|on|next|tomorrow|today|tonight|monday|tuesday|wednesday|thursday|friday|end of)\b/i.test(
      sentence.text,
    );
  if (
    FOLLOW_UP.test(sentence.text) &&
    (action !== null || /\b(?:will|'ll|going to|let's|need to|should)\b/i.test(sentence.text))
  ) {
    const assignee = action?.assignee ?? speakerCommitment(words);
    return {
      type: "follow_up",
      text,
      score: clamp((action?.score ?? 0.6) + 0.1 + (dated ? 0.05 : 0)),
      assignee,
    };
  }
  // Under five words ("Let's do digits.") an action item says too little to act on.
  if (action !== null && words.normals.length >= MIN_ACTION_WORDS) {
    const lengthBonus = words.normals.length >= 7 ? 0.05 : -0.1;
    return {
      type: "action_item",
      text,
      score: clamp(action.score + lengthBonus + (dated ? 0.1 : 0)),
      assignee: action.assignee,
    };
  }
  if (question.question) {
    // Clear form, an explicit "?", and enough words to stand alone make a question more useful.
    const marked = sentence.text.trim().endsWith("?");
    const score =
      0.5 +
      (marked ? 0.15 : 0) +
      (question.strong ? 0.15 : 0) +
      (Math.min(words.normals.length, 12) / 12) * 0.15;
    return { type: "question", text, score: clamp(score), assignee: null };
  }
  return null;
}
