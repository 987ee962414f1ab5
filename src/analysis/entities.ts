import * as chrono from "chrono-node";
import type { ItemEntity } from "wink-nlp";
import type { EntityType } from "../modules/conversations/conversation-intelligence.schemas.ts";
import { NOT_NAMES } from "./lexicon.ts";
import { freshNlp } from "./nlp.ts";
import { unicodeWords } from "./unicode-words.ts";

/** A line to search, and the instant its relative dates ("next Friday") count from. */
export interface EntityLine {
  id: string;
  text: string;
  /** ISO-8601: the line's start, or the conversation's. */
  reference: string;
}

/** One thing named in the transcript, with every line that names it. */
export interface FoundEntity {
  type: EntityType;
  subType: string;
  category: "Managed";
  /** The normalised value (an ISO-8601 date, a plain number) when one exists, else the text. */
  value: string;
  /** As said, the first time. */
  text: string;
  messageRefs: { id: string; text: string; offset?: number }[];
  messageIds: string[];
}

/** wink-nlp's entity types that Symbl's managed entities have, and the type and sub-type each becomes. */
const WINK_TYPES: Record<string, [EntityType, string]> = {
  DATE: ["datetime", "date"],
  TIME: ["datetime", "time"],
  DURATION: ["datetime", "duration"],
  MONEY: ["money", "currency"],
  CARDINAL: ["number", "cardinal"],
  ORDINAL: ["number", "ordinal"],
  PERCENT: ["number", "percent"],
};

/** A last word that makes a run of proper nouns an organisation ("Acme Inc.", "Northwind Bank"). */
const ORGANIZATION_END =
  /^(?:Inc\.?|Ltd\.?|LLC|Corp\.?|Corporation|Company|Co\.?|GmbH|Group|University|College|Bank|Labs|Technologies|Systems|Foundation|Institute|Agency|Partners|Associates|Airlines|Hospital|Committee|Board|Council|Association|Party|Department|Ministry|Commission|Museum|Festival|Union)$/;
/** A word before a run of proper nouns that makes it a place ("in London", "near Lyon"). */
const PLACE_BEFORE = /^(?:in|near|around|across|outside|inside)$/i;
/** A word as names are written: "Dana", "O'Neil". */
const NAME_WORD = /^\p{Lu}[\p{Ll}\p{M}]+(?:['’]\p{Lu}?[\p{Ll}\p{M}]+)?$/u;
/** Capitalised words that wink tags as proper nouns in speech but that name no one: fillers, greetings. */
const NOT_A_NAME =
  /^(?:U+[hm]+|M+|Mm+|H+m+|Huh|Whee|Nuh|Yeah|Yep|Nope|Alright|Okay|Oh|Ah|Eh|Th|Wow|Hey|Hi|Hello|Bye|Boy|God|Gosh|Right|Sure|Thanks|None|Name|Speaker|Recorder)$/;
/** Nationalities and languages ("English", "Spaniards"): neither a person nor a place. */
const DEMONYM = /(?:ish|ese|ian|ean|ans|ards|ettes)$|^(?:Dutch|French|Greek|Thai|Swiss)$/;
/** Words before a name that make it a person: a title or a verb of talking to someone. */
const PERSON_BEFORE =
  /^(?:Mr\.?|Mrs\.?|Ms\.?|Dr\.?|Prof\.?|with|ask|asked|tell|told|call|called|email|emailed|thank|thanks|cc)$/i;
/** Words after a name that make it a person: it speaks ("Keith said"). */
const PERSON_AFTER =
  /^(?:'s|’s|said|says|thinks|thought|mentioned|asked|told|suggested|agreed|wants|wanted)$/i;

/** "st", "nd", "rd", "th" after a digit ("21st"). */
const ORDINAL_SUFFIX = unicodeWords(/(\d)(?:st|nd|rd|th)\b/gi);

/** Digits of an amount or number as a plain number ("$2,500" → "2500", "15%" → "15"), when it has some. */
function plainNumber(value: string): string | undefined {
  if (!/\d/.test(value)) return undefined;
  const number = Number(value.replace(ORDINAL_SUFFIX, "$1").replace(/[^0-9.-]/g, ""));
  return Number.isFinite(number) ? String(number) : undefined;
}

/** A date as YYYY-MM-DD, or a stated time as a full UTC date-time, resolved forward from the reference. */
function isoDate(value: string, reference: string): string | undefined {
  const [result] = chrono.parse(
    value,
    { instant: new Date(reference), timezone: "UTC" },
    { forwardDate: true },
  );
  if (!result) return undefined;
  const date = result.start.date();
  if (Number.isNaN(date.getTime())) return undefined;
  return result.start.isCertain("hour") ? date.toISOString() : date.toISOString().slice(0, 10);
}

function normalized(type: EntityType, subType: string, value: string, reference: string) {
  if (type === "money" || type === "number") return plainNumber(value);
  if (type === "datetime" && subType !== "duration") return isoDate(value, reference);
  return undefined;
}

interface Mention {
  type: EntityType;
  subType: string;
  value: string;
}

interface RunContext {
  before: string | undefined;
  after: string | undefined;
  knownNames: Set<string>;
}

/**
 * A run of capitalised proper nouns as an organisation (by its last word), a place (after "in", "near" …)
 * or a person: a member's name anywhere, else one to three name-like words in a context only a person has
 * (PERSON_BEFORE, PERSON_AFTER). Fillers, nationalities and "the …" are none of them.
 */
function classifyRun(words: string[], context: RunContext) {
  const value = words.join(" ");
  const last = words[words.length - 1] ?? "";
  const { before, after } = context;
  if (words.length > 1 && ORGANIZATION_END.test(last)) return { type: "organization" as const, value };
  const nameLike = words.every(
    (word) => NAME_WORD.test(word) && !NOT_A_NAME.test(word) && !DEMONYM.test(word),
  );
  if (!nameLike || before?.toLowerCase() === "the") return null;
  const known = words.some((word) => context.knownNames.has(word.toLowerCase()));
  if (before !== undefined && PLACE_BEFORE.test(before) && !known)
    return { type: "location" as const, value };
  const inPersonContext =
    (before !== undefined && PERSON_BEFORE.test(before)) || (after !== undefined && PERSON_AFTER.test(after));
  return known || (words.length <= 3 && inPersonContext) ? { type: "person" as const, value } : null;
}

/* eslint-disable @typescript-eslint/unbound-method -- wink's its.* helpers are stateless functions typed as methods */
/** What one line names: wink-nlp's dates, times, amounts and numbers, then people, organisations, places. */
function mentionsIn(nlp: ReturnType<typeof freshNlp>, text: string, knownNames: Set<string>): Mention[] {
  const its = nlp.its;
  const doc = nlp.readDoc(text);
  const mentions: Mention[] = [];
  const covered = new Set<number>();
  doc.entities().each((entity: ItemEntity) => {
    const detail = entity.out(its.detail) as unknown as { value: string; type: string };
    const [start, end] = entity.out(its.span) as unknown as [number, number];
    for (let t = start; t <= end; t++) covered.add(t);
    const mapped = WINK_TYPES[detail.type];
    // wink keeps a sentence's full stop on an entity that ends it ("3pm.").
    const value = detail.value.replace(/[.,;:!?]+$/, "");
    if (mapped && value !== "") mentions.push({ type: mapped[0], subType: mapped[1], value });
  });
  const values = doc.tokens().out(its.value);
  const tags = doc.tokens().out(its.pos);
  let t = 0;
  while (t < values.length) {
    const isRunWord = (i: number) =>
      !covered.has(i) &&
      tags[i] === "PROPN" &&
      /^\p{Lu}/u.test(values[i] ?? "") &&
      !NOT_NAMES.test(values[i] ?? "");
    if (!isRunWord(t)) {
      t++;
      continue;
    }
    const from = t;
    while (isRunWord(t) || (t > from && ORGANIZATION_END.test(values[t] ?? "") && !covered.has(t))) t++;
    const run = classifyRun(values.slice(from, t), {
      before: values[from - 1],
      after: values[t],
      knownNames,
    });
    if (run) mentions.push({ ...run, subType: run.type });
  }
  return mentions;
}
/* eslint-enable @typescript-eslint/unbound-method */

/**
 * The people, organisations, places, dates and times, amounts of money and numbers the lines name, each
 * once with every line it occurs in, in order of first mention. `knownNames` are the members' names: a
 * member's name is a person wherever it stands. `value` is normalised where it can be: dates ISO-8601 (a
 * day alone as YYYY-MM-DD), amounts and numbers plain numbers when written in digits.
 */
export function findEntities(lines: EntityLine[], knownNames: string[]): FoundEntity[] {
  const names = new Set(knownNames.flatMap((name) => name.toLowerCase().split(/\s+/)).filter(Boolean));
  const nlp = freshNlp(["sbd", "pos", "ner"]);
  const found = new Map<string, FoundEntity>();
  for (const line of lines) {
    for (const mention of mentionsIn(nlp, line.text, names)) {
      const normalizedValue = normalized(mention.type, mention.subType, mention.value, line.reference);
      const key = [mention.type, mention.subType, mention.value.toLowerCase(), normalizedValue ?? ""].join(
        "\n",
      );
      let entity = found.get(key);
      if (!entity) {
        entity = {
          type: mention.type,
          subType: mention.subType,
          category: "Managed",
          value: normalizedValue ?? mention.value,
          text: mention.value,
          messageRefs: [],
          messageIds: [],
        };
        found.set(key, entity);
      }
      if (entity.messageIds.includes(line.id)) continue;
      const offset = line.text.indexOf(mention.value);
      entity.messageIds.push(line.id);
      entity.messageRefs.push({ id: line.id, text: line.text, ...(offset >= 0 && { offset }) });
    }
  }
  return [...found.values()];
}
