/**
 * The English words and phrases the analysis rules consult, in one place: what counts as filler, as a
 * label, as a commitment, as a question. Words are wink-nlp normal forms (lowercase; "'ll" → "will",
 * "n't" → "not") unless a list says otherwise. Why each list exists is in docs/ANALYSIS.md.
 */
import { unicodeWords } from "./unicode-words.ts";

/** The words of a list written one after another, separated by spaces or line breaks. */
function words(list: string): ReadonlySet<string> {
  return new Set(list.trim().split(/\s+/));
}

// Content and topics.

/** Words that say little about what a meeting is about, beyond wink's stop words. */
export const MEETING_STOP_WORDS = words(`
  yeah yes okay ok right like gonna wanna gotta think know mean guess thing things stuff kind sort lot
  bit actually really just well maybe probably basically obviously anyway oh hmm uh um mm
  say said says go going get got getting want need make let see look come put take
  good sure fine great nice pretty little way point question idea time something anything everything
  one ones two three mr chair hon
`);

/**
 * English function words: articles, pronouns, prepositions, conjunctions, auxiliaries and question words. A
 * question's search for the lines that answer it leaves them out ("Who ordered the penguins?" looks for
 * "ordered" and "penguins", not every line with "the").
 */
export const FUNCTION_WORDS = words(`
  a an the this that these those some any all each every no not nor and or but if then than so as
  of on in at to for from by with without about into onto over under after before between during through
  up down out off again until while since because
  i me my mine we us our ours you your yours he him his she her hers it its they them their theirs
  who whom whose what which when where why how whatever whoever
  is are was were be been being am do does did done doing have has had having
  will would shall should can could may might must
  there here also too very just only much many more most other such own same
`);

/**
 * Words that never belong in a topic label although wink may tag them as nouns: forms of address,
 * discourse and filler words, unsplit contractions, names of times of day.
 */
export const NOT_LABEL_WORDS = words(`
  alright allright dunno guy guys folks madam sir mister kay okey yep yup nope sorry
  hello hi hey bye thanks cheers gosh wow cool whatever
  somebody someone anybody anyone everybody everyone nobody
  today tomorrow yesterday tonight morning afternoon evening moment
`);

/** Nouns too general to be a topic on their own; they may still end a longer phrase ("young people"). */
export const GENERAL_NOUNS = words(`
  people person meeting meetings minute minutes second seconds hour hours day days week weeks year years
  part parts fact case example sense number type types kinds sorts problem problems issue issues
  place end level side area areas matter reason situation option options stage step task job work
  difficulty support sector vision mind deal chance term terms words word group hand list
`);

/** Evaluative or vague adjectives dropped from the start of a label ("different choices" → "choices"). */
export const VAGUE_ADJECTIVES = words(`
  actual real big different other certain particular various same whole entire several many own bad
  important possible similar proper wrong usual normal current
`);

// Summary.

/** The speaker speaking of themself, a feature of the summary's and the decisions' sentences. */
export const FIRST_PERSON_WORDS = words(`i me my`);

/** Stems (Porter2) of words that mark what a meeting is for and what it settled. */
export const CUE_STEMS = words(`
  meet agenda project discuss decid decis agre goal aim plan present propos design budget cost result
  issu problem conclus summari next today task team group
`);

/** Discourse openers that carry nothing in a written summary ("So", "Okay, so", "And yeah, …"). */
export const SPOKEN_OPENERS = unicodeWords(
  /^(?:(?:so|and|but|okay|ok|yeah|yes|well|right|now|then|also|alright|all right|oh|like|anyway|actually|i mean|you know)\b[\s,]*)+/i,
);

/** Spoken hedges that a written summary leaves out, with the commas around them. */
export const SPOKEN_HEDGES = unicodeWords(
  /(?:,\s*)?\b(?:you know|i mean|kind of|sort of|i guess|i think|basically|actually|just|really)\b(?:\s*,)?/gi,
);

// Transcript cleaning (words as written, lowercased).

/** Short words that can legitimately precede a word starting with the same letters ("a ah", "in into"). */
export const REAL_SHORT_WORDS = words(`
  a an i in is it at on to so no do be we he me my or of as if up us by go
  and the for you are not but can all any our one out how who now new was has had get see use two ten too
  then them there this that what with will some more also
`);

// Sentence shapes.

/** Spoken openers before a clause ("so", "okay", "and", "or"), which tidySentence mostly drops too. */
export const OPENERS = words(
  `so or and but okay ok yeah yes well right now then also alright oh anyway actually hey`,
);

/** Words of a reply that answer nothing on their own ("yeah", "okay", "mm", "sure"). */
export const BACKCHANNEL: ReadonlySet<string> = new Set([
  ...OPENERS,
  ...words(`no yep yup nope sure mm hmm uh um huh exactly true indeed`),
]);

export const WH_WORDS = words(`what why how when where who whom whose which`);

/** Auxiliaries and modals that open an inverted question ("do you …", "is it …"). */
export const AUX_STARTS = words(
  `do does did is are was were can could will would should shall may might have has had am`,
);

/** Subjects after an opening auxiliary that make it a question ("do you …", "is there …"). */
export const SUBJECT_PRONOUNS = words(`
  everyone everybody anybody somebody someone those these i you we he she it they there this that anyone
`);

export const NEGATION = words(`not n't never no`);

/** First words (after openers) of a condition or a reason, which states no task: "if …", "'cause I have to …". */
export const NOT_TASK_OPENINGS = words(`if unless because cause 'cause since`);

/** Words that make what follows a relative clause ("that we're going to use"), not a commitment. */
export const RELATIVE = words(`that which what who where how whatever`);

/**
 * Words a language model's chapter title may hold although the chapter's lines do not say them (docs/LLM.md,
 * Evidence): function words, and words that frame a subject rather than name it ("Review of the budget").
 */
export const TITLE_FRAMING_WORDS = words(`
  a an the and or nor but of on in at to for from by with without about into over under after before
  vs versus per via its their our s discussion review overview update status
`);

/** Words a fragment opens with rather than a question ("That we're starting so well?", "To just go order?"). */
export const FRAGMENT_STARTS = words(`that to if unless because cause for within as like than where whereas`);

/** Words a cut-off sentence ends on ("I'll rerun it with", "You should just give it to."). */
export const DANGLING_ENDS = words(`
  the a an and or but of with to for from at by into about than that because if
  my our your their his its is are was i we they he she very will would can could should
`);

/** Modals a cut-off sentence ends on ("The next meeting will"). */
export const CUT_OFF_MODALS = words(`will would can could should shall must might may`);

/** Back-channel and tag questions: "right?", "you know?", "isn't it?", "sorry?". */
export const TAG_QUESTION =
  /(?:^|[\s,])(?:right|yeah|yes|okay|ok|huh|eh|no|sorry|really|you know|you see|isn't it|is it|aren't they|don't you think|didn't it|wasn't it|doesn't it|or not|or something|and so on|what)\s*\?$/i;

/** Checks that the listener follows, asked with a question's form but wanting no answer. */
export const RHETORICAL_CHECK = unicodeWords(
  /^(?:you know what i mean|do you know what i mean|you see what i mean)\b/i,
);

// Tasks and commitments.

/** Modal phrases that turn "I"/"we"/"you"/a name into someone committing to (or being asked for) a task. */
export const COMMITMENT =
  /^(?:will|shall|must|should|(?:am|are|is) (?:just )?(?:going to|gonna)|(?:have|has|need|needs|ought) to|got to|'ve got to|have got to|wanna|want to|can|could|might|may)$/;

/** First words of every COMMITMENT phrase (wink's normal forms: "'ll" → "will", "'ve" → "have"). */
export const COMMITMENT_FIRST_WORDS = words(
  `will shall must should am are is have has need needs ought got 've wanna want can could might may`,
);

/** Verbs before the task's own verb: "gonna have to explain", "wanna start including", "try to get". */
export const OBLIGATION_VERBS = words(`have need got`);
export const START_VERBS = words(`start begin try continue`);

/** Words before the verb of an instruction or a "you can …" that hands out work ("so maybe please just …"). */
export const LEAD_INS: ReadonlySet<string> = new Set([...OPENERS, ...words(`maybe perhaps please just`)]);

/** Phrasal verbs that name a task although their verb alone does not ("come up with", "put together"). */
export const PHRASAL_TASK = unicodeWords(
  /^(?:come up with|think(?:ing)? about|go through|(?:put|get) (?:\w+ )?together|find out|set up|write up|look into|look up|(?:talk|speak) to (?:our|the|your|my|a|an) )/,
);

/**
 * Verbs that, opening a clause, give an instruction for after the meeting when a time after it comes with
 * them or the meeting is closing ("Maybe for next meeting send me your presentation", "check out the
 * corporate website").
 */
export const IMPERATIVE_VERBS = words(`
  send email mail forward check prepare bring fill write research contact call ask
  make find read finish
`);

/** "wanna", "want to": a plan for "we", a hypothetical for "you" ("say you wanna pick up the phone"). */
export const WISH = /^(?:wanna|want to)$/;

/** Commitment phrases that state a wish or an opinion unless a time after the meeting comes with them. */
export const WEAK_COMMITMENT = /^(?:should|must|wanna|want to|ought to|can|could|might|may)$/;

/** "can", "could": said to "you" mid-sentence they describe what is possible ("so you can plug it in"). */
export const ABILITY = /^(?:can|could)$/;

/** Obligations that, said to an unnamed "you", describe how things work rather than ask for a task. */
export const GENERIC_OBLIGATION = /^(?:have to|'ve got to|have got to|got to|must)$/;

/** Modals of a request when followed by "you": "can you …", "would you …". */
export const REQUEST_MODALS = words(`can could would will`);

/** Words before "can you …" that make it part of a clause rather than a request ("if you could …"). */
export const NOT_REQUEST_BEFORE = /^(?:if|that|whether|what|how|when|which|who|where|so that|unless)$/;

/** Verbs that follow "I will", "we should", "let's" without making a task ("we'll see", "let's say"). */
export const NON_TASK_VERBS = words(`
  be see know think guess say mean like love want wish hope agree believe suppose assume imagine
  remember forget hear wait pass stop leave move begin start go come continue proceed recap keep put
  call end finish happen seem feel get have talk mention note add point answer ask thank wrap skip
  bear deal admit spoil allow pause resume freeze expect wonder lose bet let receive
`);

/** Objects that say nothing on their own: "let's take it", "can you read that?". */
export const EMPTY_OBJECTS = words(
  `it that this them those these one so too now then here there again please better well more`,
);

/** Words that soften a task ("maybe we should …", "I think I'll …"). */
export const HEDGES = unicodeWords(
  /\b(?:maybe|perhaps|probably|possibly|i think|i guess|i suppose|might|if)\b/i,
);

/** Capitalised words that are never someone's name: sentence-start words, weekdays and months (as written). */
export const NOT_NAMES =
  /^(?:I|Okay|Ok|Yeah|Yes|No|Oh|So|Well|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)$/;

const PEOPLE = "(?:you|him|her|them|everyone|everybody|us|me)";

/**
 * Phrases that promise a later exchange rather than a piece of work (Symbl's follow-ups): get back to
 * someone, contact or ask someone, set up a meeting, send or share something with someone, the minutes.
 */
export const FOLLOW_UP = unicodeWords(
  new RegExp(
    `\\b(?:${[
      // get back to someone
      "follow(?:ing)?[\\s-]up|get back to|circle back|touch base|check (?:back )?with|reach out",
      "check (?:back )?(?:with|in) (?:my|our|the|your) (?:department|team|office|people|colleagues|boss)",
      `(?<!to )let ${PEOPLE} know`,
      // send or share something with someone
      `(?:send|e-?mail|forward|mail) (?:it |that |this |them |those )?(?:to )?(?:${PEOPLE}|round|around|out)\\b`,
      `(?:give|pass|get) (?:it|that|this|them|those)(?: out)? to ${PEOPLE}`,
      "send (?:you |him |her |them )?(?:an |a |the )?e-?mail|e-?mail (?:me|us|the)\\b",
      "(?:share|circulate) (?:it|that|this|them|those|the \\w+) with|be sent (?:a|the)\\b",
      `(?:send|pass|forward|give) ${PEOPLE} (?:on )?(?:that|the|this|my|our|an|a|some) (?:e-?mail|notes|link|file|document|slides|paper|code|figures|data|results)`,
      "(?:put|get|send|share|circulate|post|upload|write|do)(?:ting|ing)? (?:(?:up |together )?(?:the|my|our|some|these|those|all the) )?(?:minutes|notes)",
      // contact someone
      "(?:talk|speak) to (?:our|the|your|my|a|an) (?!meeting|group|team)\\w+",
      "(?:call|phone|contact|ring|ask) (?:the|our|your|a|an) (?!question)\\w+ (?:department|team|office|people|folks|manager|group)",
      // set up a meeting
      "(?:set up|setting up|schedule|arrange|arranging|book) (?:a|another|the next|the) (?:meeting|call|time)|meet (?:again|next)",
      "(?:talk|discuss|speak|chat) (?:about (?:it|that|this) )?(?:offline|after the meeting|next (?:time|week))",
      "(?:do|take|discuss) (?:this|that|it) off-?line",
    ].join("|")})\\b`,
    "i",
  ),
);

/** Words that say something is still to come (or offered: "I can pass you that email"), which a follow-up phrase needs when it states no task. */
export const FUTURE_MARKERS = unicodeWords(
  /\b(?:will|'ll|going to|let's|need to|should|(?<!if |what )i can(?!'t|not))\b/i,
);

/**
 * Times after the meeting that make a statement a plan rather than an opinion ("next week", "by
 * Thursday", "for the next meeting", "after lunch", "the upcoming days", "later on in the month").
 */
export const LATER = unicodeWords(
  /\b(?:next (?:meeting|time|week|month|session|phase|stage|experiments?|few days|couple of (?:days|weeks))|(?:this|the) (?:coming|upcoming) (?:days|weeks?)|upcoming days|tomorrow|tonight|(?:on|by|before|until|till|next|this|for) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:monday|tuesday|wednesday|thursday|friday)|(?<!earlier |last )this week|end of (?:the|this|next) (?:week|month|day)|after (?:the meeting|this meeting|lunch|the break)|later (?:on|today|this week|in the (?:week|month))|(?:in|within) (?:a|one|two|the next) (?:weeks?|days?|months?))\b/i,
);

/** Moments inside the meeting: what happens "now", "in a second" or "first" is meeting procedure. */
export const NOW = unicodeWords(
  /\b(?:now|right away|(?:in|for) a (?:second|sec|minute|moment|bit)|first|at the moment|this (?:particular )?meeting|today|on the (?:white ?)?board|whiteboard|(?:next|this) slide)\b/i,
);

/**
 * Verbs of things done in the meeting itself ("I'll show you the agenda", "let's look at the flat case",
 * "could you explain that", "can you hand me over this?"), which are tasks only with a time after the meeting.
 */
export const PROCEDURE_VERBS = words(`
  show explain present draw read tell describe summarize summarise introduce open close save click plug
  hand repeat clarify elaborate look give start use discuss decide inform choose walk stay
`);

/** A condition inside a sentence ("… if you're gonna do digits again", "… when you're frustrated"). */
export const CONDITION = unicodeWords(/\b(?:if|whenever|unless|in case)\b/i);

/** Work that is done outside a meeting ("order", "email", "book"), unlike design choices ("use", "make"). */
export const ERRAND_VERBS = words(`
  order book schedule send email mail forward prepare write check contact call ask bring research
  investigate test run fix update finish arrange review collect print install circulate distribute
  submit upload download report organise organize sort contact phone visit
`);

/** Phrasal verbs of work done outside the meeting, which the group decides on like an errand ("we'll have to look into that"). */
export const PHRASAL_ERRAND = unicodeWords(/^(?:look (?:into|up)|write up)\b/);

/** Work that "you can …" hands out at the close of a meeting: errands, and "look at", "work on", "find". */
export const WORK_VERBS: ReadonlySet<string> = new Set([...ERRAND_VERBS, ...words(`look work find think`)]);

/** A rating given in the meeting: "I'll give it a three". */
export const RATING = unicodeWords(/\bgive (?:it|that|this|them) (?:a|an) \w+\b/i);

/** Asking someone outside the conversation ("ask finance for …", "ask the manufacturing department"): a follow-up. */
export const ASK_SOMEONE = unicodeWords(
  /\bask (?!(?:you|u|me|us|myself|ourselves|ourself|yourself|yourselves|themselves|each|a|the|any|some|my|your|our|his|her|their|one|another|two|questions?|about|whether|if|what|how|why|who|when|where|for|that|this|it)\b)\w+|\bask the \w+ (?:department|team|office|people|folks)\b/i,
);

// Topic segmentation (chapters).

/**
 * Phrases with which a meeting moves to its next subject: a chair's "we've got some questions now on …",
 * "let's move on to …", "next item", an agenda or presentation being opened (from QMSum train turns at
 * human topic boundaries).
 */
export const TOPIC_CUES = unicodeWords(
  /\b(?:move on|moving on|go on (?:now )?to|turn (?:now )?to|next (?:item|point|topic|question|questions|thing|phase|presentation|agenda)|(?:some|the|a few|final|first) questions? (?:now )?(?:on|about|from)|questions now|agenda|your turn|over to you|(?:on|back) to the|presentation|whiteboard|evaluation|project finance)\b/i,
);

/**
 * Words that name who is talking or how they are addressed, never what a chapter is about: roles in a
 * meeting ("project manager", "marketing expert", "industrial designer") and titles of a committee or a
 * chamber ("honourable minister", "madam chair", "deputy director"), which wink may tag as common nouns.
 */
export const SPEAKER_AND_ADDRESS_WORDS = words(`
  speaker speakers chair chairs chairman chairwoman chairperson minister ministers honourable honorable
  deputy secretary member members colleague colleagues lady ladies gentleman gentlemen mr mrs ms dr
  professor presenter interviewer witness witnesses manager managers expert experts designer designers
`);

/** Adjectives that, before a general noun only, leave a title saying nothing ("interesting problem"). */
export const EMPTY_TITLE_ADJECTIVES = words(`
  interesting good nice great bad big small little main basic simple easy hard difficult general
  first second last next final initial new old whole major minor key
`);

/** Two-word fillers whose noun says nothing ("of course", "in fact"), written as "first-second". */
export const FILLER_IDIOMS = words(`of-course in-fact at-least at-all for-instance in-general`);

// Decisions. Matched against a sentence's normal forms joined by single spaces, with a space at either end
// (decision-features.ts), so " we will " stands for "we'll" too; the weights they get are learned.

/** Words that name a decision: "we decided", "agreed", "the conclusion", "settled on", "finally". */
export const DECISION_WORD =
  / (?:decide|decided|decides|deciding|decision|decisions|agree|agreed|agreement|conclude|concluded|conclusion|settle|settled|consensus|final|finally|finalise|finalize|resolved) /g;

/** Phrases that pick one option: "go with", "go for", "stick with", "choose", "opt for", "keep". */
export const DECISION_CHOICE =
  / (?:go with|go for|going with|going for|stick with|stick to|opt for|choose|chose|chosen|pick|picked|keep|use|using|have|take) /g;

/** The group saying what it will do: "we will", "let us", "we are going to", "we should", "we can". */
export const DECISION_GROUP_FUTURE =
  / (?:we will|we would|let us|we are going to|we are gonna|we should|we can|we have to|we need to|we want) /g;

/** A choice against something: "no need for", "we do not need", "get rid of", "drop", "not going to". */
export const DECISION_NEGATIVE_CHOICE =
  / (?:no need|do not need|not need|get rid of|drop|dropped|without|not going to|not gonna|leave out|take out|instead) /g;

/** Words that sum up what was said: "so that is", "so we have", "so it will be". */
export const DECISION_RECAP =
  / (?:so that is|so we have|so it is|so it will|that is it|so we are|so we will) /g;

/** Words that keep a sentence from deciding anything: "maybe", "I do not know", "I guess", "might". */
export const DECISION_HEDGE =
  / (?:maybe|perhaps|probably|possibly|might|could|i guess|i do not know|i am not sure|or something|wonder|if) /g;

/**
 * A sentence that states a choice made, as a reader would take it for a decision: the group or "it" decided,
 * agreed, settled or chose ("we've decided it's going to be a rubber case", "so we all agreed on the
 * yellow"); the decision is, was or has been made to …; the group picks or drops something ("let's go with
 * five then", "we'll go for the battery", "we're going to get rid of the locator", "we have to use
 * plastic"); the consensus is …. Each says what: not "We have decided.", "We already decided that in the
 * last meeting.", "That's what we chose there."
 */
export const DECISION_STATEMENT =
  / (?:(?:(?:so |i think )?we|it)(?: have| had| would| are| were| is| was)?(?: all| just| already| now| finally)? (?:decided|agreed|settled|concluded|chose|chosen|opted)|decision (?:is|was|has been) (?:to|that|made)|(?:we will|let us|we should|we are going to|we are gonna|we have to|we must|we need to)(?: just| definitely| all)? (?:go with|go for|stick with|stick to|opt for|use|keep|drop|get rid of|include|leave out|take out|do without|settle on|choose|pick)|consensus (?:is|was)|we are (?:going|gonna) (?:to )?(?:go|stick) (?:with|for))(?! (?:(?:that |it |this |upon |on |there )?[.,;:!?]|(?:that |it |this )?(?:on |in |at |during )?(?:the |our )?(?:last |previous |first )?(?:meeting|time) )) /;

/**
 * A decision still to take, asked about or pointed at rather than stated: "we have to come to a decision on
 * …", "we need to decide what …", "did we decide …", "should we go with …", "we have to choose later",
 * "what we're going to use", "which we have to use", "it's up to the design department"; someone else's
 * suggestion ("they suggest that we should …"), an opinion ("in my opinion we have to go with …"), keeping
 * something in mind, the meeting's own procedure ("let's go for the three presentations right now", "let's go
 * for lunch then"), and keeping on doing something ("we'll keep reviewing it").
 */
export const DECISION_AGENDA =
  / (?:(?:make|take|reach|come to|came to|arrive at|making|taking|reaching|coming to)(?: a| the| some| our| any)?(?: final| key| last)? decisions? |decide (?:on|about|what|whether|which|how|if) |(?:have|need|going|got|want) to decide |to decide |did we |can we |should we |do we |why we |whether |later |in mind |keep (?:it )?(?:in touch|track|an eye) |keep \w+ing |(?:what|which) (?:we|they) |that is what |it is up to |(?:they|he|she) (?:suggest|suggested|suggests|said|say|says|want|wanted|wants) |in my opinion |have to see |right now |presentations? |(?:lunch|coffee|tea|break|drinks?|dinner) )/;

/**
 * The words of a formal sitting (a parliamentary or assembly committee, a hearing): the chair addressed by
 * title ("Mr. Chair", "Thank you, Chair"), ministers, the committee, the assembly, the house, honourable members,
 * government and legislation. QMSum's train committee sittings say them in 10 % to 76 % of their lines; its
 * product-design and research meetings in at most 0.5 % (decisions.ts, isFormalSitting).
 */
export const FORMAL_SITTING = unicodeWords(
  /\b(?:(?:mr|mister|madam|madame)\.? ?(?:chair|chairman|chairwoman|chairperson|speaker)|thank you,? (?:chair|chairman|chairperson)|ministers?|cabinet secretary|committees?|assembly|parliament(?:ary)?|the house|honourable|legislation|government)\b/i,
);

/** A decision that ends on its choice verb was cut off before it said what ("We have to keep.", "That we should use."). */
export const DECISION_UNFINISHED_ENDS = words(`keep use choose pick include drop stick`);

/** A short reply that accepts what was just said: "yeah", "okay", "sure", "agreed", "sounds good". */
export const AGREEMENT_REPLY =
  / (?:yeah|yes|yep|okay|ok|sure|agreed|agree|right|fine|good|great|cool|definitely|absolutely|exactly|alright|sounds good) /;
