import type { IntentName } from "../modules/conversations/conversation-intelligence.schemas.ts";
import { unicodeWords } from "./unicode-words.ts";

/**
 * The phrases that state each of Symbl's call intents, checked in this order (the first that matches is
 * the line's intent; later matches become alternatives). They are kept here rather than in lexicon.ts,
 * which holds the summary and insight lists, because only this file reads them. A line states an intent
 * only in so many words: Recap detects these phrasings and no others (docs/SYMBL-COMPAT.md).
 */
const INTENT_PHRASES: { intent: IntentName; pattern: RegExp; score: number }[] = [
  {
    intent: "do_not_call",
    pattern: unicodeWords(
      /\b(?:(?:do not|don't|dont|never|stop)\s+(?:call|calling|ring|phone|contact)(?:ing)?\s+(?:me|us|here|this number)|(?:take|remove)\s+(?:me|us|my number|this number|my name)\s+(?:off|from)\s+(?:your|the)\s+(?:\w+\s+)?list|do[- ]not[- ]call list)\b/i,
    ),
    score: 0.95,
  },
  {
    intent: "answering_machine",
    pattern: unicodeWords(
      /\b(?:leave (?:a|your) (?:message|name and number)|after the (?:tone|beep)|you(?:'ve| have) reached the (?:voice ?mail|mailbox)|voice ?mail(?:box)? (?:of|for)|mailbox is full|(?:is|are) not available to take your call)\b/i,
    ),
    score: 0.9,
  },
  {
    intent: "not_interested",
    pattern: unicodeWords(
      /\b(?:(?:not|no longer) interested|no,? thank(?:s| you)|not for (?:me|us)|(?:don't|do not) need (?:it|this|that|one|any)|we(?:'re| are) (?:all set|happy with what we have))\b/i,
    ),
    score: 0.85,
  },
  {
    intent: "interested",
    pattern: unicodeWords(
      /\b(?:(?:i'm|i am|we're|we are|i'd be|we'd be|i would be|we would be)(?: \w+)? interested|sign (?:me|us) up|tell me more|sounds (?:great|good|interesting)|(?:send|email) (?:me|us) (?:the |more )?(?:details|information|info|a quote|the contract)|how (?:do|can) (?:i|we) (?:get started|sign up|buy|order))\b/i,
    ),
    score: 0.8,
  },
];

export interface IntentLine {
  id: string;
  text: string;
}

export interface FoundIntent {
  text: string;
  messageIds: string[];
  intent: IntentName;
  score: number;
  alternatives: { intent: IntentName; score: number }[];
}

/**
 * The lines that state an intent in one of INTENT_PHRASES' phrasings, each with the first intent it states
 * and any others as alternatives. "Not interested" is read before "interested", so it never counts as both.
 */
export function findIntents(lines: IntentLine[]): FoundIntent[] {
  return lines.flatMap((line) => {
    const matches: { intent: IntentName; score: number }[] = [];
    let rest = line.text;
    for (const { intent, pattern, score } of INTENT_PHRASES) {
      if (!pattern.test(rest)) continue;
      matches.push({ intent, score });
      // A phrase read as one intent is not read again as another ("not interested" is not "interested").
      rest = rest.replace(new RegExp(pattern.source, `${pattern.flags}g`), " ");
    }
    const [first, ...alternatives] = matches;
    if (!first) return [];
    return [{ text: line.text, messageIds: [line.id], ...first, alternatives }];
  });
}
