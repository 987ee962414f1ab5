/**
 * Learned weights of the action-item model, one per feature of action-features.ts and one per phrase, its
 * phrases, its threshold, and how it was trained. Written by
 * `node --import tsx bench/train-actions.ts --write` from QMSum train; do not edit by hand.
 */
import type { ActionModel } from "./action-model.ts";

export const ACTION_WEIGHTS: ActionModel = {
  bias: -6.4048,
  weights: [
    0.5985, // iFirm
    0.5406, // iWeak
    0.2529, // weFirm
    0.3932, // weWeak
    -0.7284, // lets
    0.393, // youFirm
    -0.1877, // youWeak
    1.4819, // nameModal
    -0.298, // theyModal
    -0.0138, // request
    0.6021, // imperative
    -0.1508, // errandVerb
    0.5078, // errandAnywhere
    0.3475, // procedureVerb
    0.1928, // thinkVerb
    0.4163, // followUpPhrase
    0.0771, // records
    1.6565, // later
    0.0226, // now
    0.299, // dateWords
    -0.2457, // question
    0.3846, // hedge
    -0.3046, // condition
    -0.3566, // negated
    -0.2766, // past
    0.1877, // reported
    1.0625, // nextStep
    0.1846, // social
    -0.1995, // wish
    0.0778, // hypothetical
    -0.1269, // addressed
    -1.4094, // askedLater
    0.5154, // ruleTask
    1.201, // ruleFollowUp
    0.5033, // ruleTentative
    -0.1952, // role
    2.9772, // closingRole
    1.1331, // position
    -0.0834, // closing
    -0.245, // opening
    -1.4385, // length
    -0.874, // short
    0.2143, // leadSpeaker
    1.4826, // namesParticipant
    0.7663, // commitErrand
    0.0897, // commitLater
    0.3815, // closingAssign
    -0.2231, // nonTaskVerb
    0.3199, // emptyObject
    -0.6339, // askedBefore
    0.425, // acceptedAfter
    -0.0327, // longTurn
    0.3058, // final
    1.0845, // "i will"
    2.0221, // "check for"
    7.8089, // "transcript to"
    4.059, // "for accuracy"
    -1.4337, // "a transcript"
    1.7355, // "usual you"
    1.4741, // "send"
    0.066, // "sent a"
    2.3055, // "and see"
    0.8958, // "accuracy"
    1.8211, // "check"
    -0.1511, // "will"
    -0.9512, // "to check"
    12.1493, // "feel design"
    1.8696, // "try"
    -1.3075, // "be sent"
    -1.015, // "as usual"
    1.7327, // "look into"
    2.1111, // "transcript"
    -1.2267, // "next meeting"
    0.5848, // "next"
    0.8801, // "meeting"
    3.5922, // "product evaluation"
    2.2256, // "find out"
    2.0323, // "the minutes"
    0.009, // "next week"
    0.5618, // "will send"
    -0.8233, // "try to"
    0.9852, // "look"
    1.7353, // "work on"
    3.6809, // "questionnaire"
    1.3365, // "will put"
    1.3844, // "the industrial"
    1.3412, // "be working"
    3.0523, // "clay"
    3.129, // "interface design"
    0.2397, // "will try"
    3.3465, // "industrial"
    1.2922, // "will do"
    3.0981, // "working design"
    1.9488, // "the technical"
    0.5641, // "usual"
    2.7907, // "be happy"
    1.6261, // "do the"
    2.2556, // "write up"
    0.4026, // "design"
    -2.7747, // "following the"
    2.4176, // "folder"
    -0.5327, // "designer"
    0.2286, // "and"
    -1.1341, // "user interface"
    1.5141, // "see if"
    2.946, // "a note"
    0.3577, // "for next"
    0.2195, // "to"
    -4.078, // "industrial designer"
    -1.1027, // "the working"
    -0.0374, // "so i"
    -0.3096, // "minutes"
    0.5349, // "so"
    2.3915, // "final"
    0.0945, // "i"
    0.0532, // "user"
    0.1821, // "the next"
    -0.0844, // "technical"
    0.1559, // "the user"
    1.0373, // "gonna"
    0.1708, // "sent"
    0.781, // "a look"
    -0.1165, // "you will"
    1.2137, // "do is"
    -0.4594, // "are gonna"
    1.276, // "together on"
    -0.9324, // "technical functions"
    1.1584, // "will i"
    2.7672, // "happy to"
    2.3469, // "interface designer"
    0.4255, // "out"
    2.6374, // "suggestion"
    1.5286, // "him"
    0.5299, // "tomorrow"
    0.34, // "summary"
    -0.2216, // "look at"
    0.2478, // "working"
    0.2361, // "and i"
    -0.7142, // "interface"
    1.1232, // "tuesday"
    0.6218, // "find"
    0.4371, // "to you"
    0.7239, // "minutes and"
    2.0234, // "you two"
    0.0456, // "write"
    0.5838, // "work together"
    1.1021, // "working on"
    2.6752, // "disk"
    0.2088, // "what"
    -0.5067, // "see"
    -0.7978, // "meeting but"
    3.5466, // "see whether"
    0.8513, // "email"
    1.2654, // "the web"
    0.2201, // "get"
    -0.654, // "the final"
    1.8232, // "web"
    3.1154, // "events"
    1.6573, // "should try"
    0.1696, // "you"
    0.8005, // "together"
    2.666, // "give them"
    2.0753, // "let you"
    0.369, // "will be"
    0.6203, // "will take"
    1.1331, // "friday"
    0.9001, // "come up"
    0.6762, // "meeting so"
    1.9209, // "user requirements"
    2.5565, // "3"
    1.2214, // "monday"
    0.2098, // "at"
    0.9211, // "i can"
    0.0891, // "up with"
    0.5567, // "trend watching"
    1.9866, // "draft"
    0.1815, // "this meeting"
    1.3929, // "at it"
    0.3454, // "gonna do"
    0.3989, // "with"
    1.3093, // "okay and"
    1.6994, // "to write"
    1.4765, // "train"
    0.9295, // "as soon"
    0.1333, // "following"
    0.3209, // "them"
    -0.1677, // "work"
    0.6407, // "soon as"
    0.6236, // "send it"
    -0.2995, // "u i"
    1.3649, // "stage"
    2.0253, // "report"
    1.217, // "see what"
    1.1089, // "do some"
    0.7, // "run"
    1.0638, // "take a"
    -0.0977, // "on"
    0.2127, // "up"
    -1.7867, // "look and"
    -0.8149, // "to do"
    0.1057, // "design and"
    0.0289, // "we"
    0.052, // "we should"
    1.2818, // "the shared"
    1.2021, // "ok"
    0.7474, // "week"
    0.0681, // "we will"
    -0.3752, // "the meeting"
    0.0853, // "the"
    0.0749, // "can look"
    -1.3299, // "minutes of"
    -0.6059, // "marketing"
    0.6727, // "okay then"
    2.1269, // "talk to"
    1.7927, // "will work"
    0.3459, // "soon"
    -0.266, // "happy"
    1.9845, // "experiment"
    1.4844, // "finish"
    1.5338, // "test"
    1.384, // "will get"
    1.3191, // "web page"
    -0.3919, // "gonna try"
    -0.7663, // "shared folder"
    1.5125, // "prototype"
    0.595, // "should"
    1.3408, // "can give"
    0.1331, // "some"
    1.0075, // "some more"
    -0.0695, // "take"
    0.1948, // "give"
    -0.1782, // "what we"
    -1.265, // "next time"
    0.3756, // "to work"
    2.0677, // "need some"
    0.2487, // "i need"
    -3.1612, // "a prototype"
    1.3993, // "going to"
    -6.8899, // "and feel"
    0.0935, // "maybe"
    -0.2137, // "then"
    0.3135, // "note"
    0.1385, // "try it"
    -0.4966, // "to try"
    0.4348, // "and then"
    -0.0312, // "am gonna"
    0.5332, // "with the"
    0.1619, // "do"
    -0.1269, // "the look"
    0.548, // "the marketing"
    2.5339, // "information about"
    2.8489, // "intermediate"
    1.0483, // "modeling"
    0.5702, // "and try"
    2.2777, // "take notes"
    2.7588, // "three months"
    1.6152, // "at least"
    1.6261, // "yeah so"
    -1.0797, // "to send"
    0.3788, // "and you"
    0.9711, // "i d"
    0.2202, // "again"
    1.1004, // "is to"
    1.9353, // "afterwards"
    0.6005, // "to train"
    -0.1015, // "least"
    1.518, // "d the"
    1.1396, // "should probably"
    1.1272, // "will talk"
    2.3808, // "just need"
    1.1375, // "run it"
    0.1173, // "to get"
    2.3983, // "brian"
    -0.253, // "to look"
    -0.3437, // "come"
    0.5984, // "put"
    -0.5867, // "evaluation"
    0.781, // "forth and"
    0.4406, // "interface concept"
    -0.0875, // "we can"
    1.2715, // "a first"
    1.6621, // "give me"
    0.849, // "hynek"
    -1.225, // "the transcript"
    2.5652, // "timit"
    -0.303, // "then we"
    2.0854, // "from you"
    -1.5786, // "marketing expert"
    1.9297, // "will make"
    0.9096, // "should look"
    0.7902, // "see how"
    2.6869, // "at three"
    2.3018, // "up some"
    -0.2909, // "get back"
    2.1109, // "the management"
    0.4035, // "be helpful"
    0.6405, // "you the"
    0.3138, // "okay so"
    2.4167, // "into that"
    0.1758, // "ok so"
    2.2013, // "department"
    1.2748, // "again for"
    1.5276, // "cheating"
    3.2004, // "give an"
    2.1079, // "so anyway"
    2.0766, // "will actually"
    0.9534, // "set"
    1.6412, // "neural"
    0.9144, // "you and"
    0.5635, // "to see"
    1.1493, // "put some"
    0.1477, // "into"
    1.246, // "back and"
    2.1756, // "powers"
    0.7355, // "data"
    -0.4571, // "going"
    2.5421, // "specify"
    -0.6187, // "it is"
    -0.2227, // "get them"
    2.5881, // "r and"
    1.1304, // "should do"
    0.7014, // "thirty minutes"
    0.4975, // "them out"
    2.2734, // "initial"
    0.9923, // "you need"
    0.8946, // "you could"
    0.5172, // "let"
    -0.3705, // "set of"
    1.7861, // "get more"
    1.9304, // "gonna work"
    0.6252, // "and get"
    -0.2889, // "can"
    0.1373, // "to find"
    0.0498, // "and so"
    -1.3631, // "a final"
    1.9177, // "hope to"
    0.4937, // "start"
    -0.0106, // "requirements"
    -0.3713, // "be"
    -0.3106, // "will look"
    2.8956, // "some research"
    0.0768, // "okay"
    0.4048, // "stuff"
    0.6833, // "on that"
    1.3558, // "what people"
    1.2401, // "out the"
    1.2339, // "expert"
    -0.8425, // "and find"
    2.195, // "discuss it"
    1.9895, // "on with"
    1.0068, // "would be"
    0.6995, // "maybe you"
    -0.1183, // "need to"
    -0.41, // "an email"
    2.1058, // "sufficient"
    -0.4183, // "then i"
    1.0888, // "do a"
    2.6616, // "the plan"
    0.6613, // "to him"
    1.2636, // "will find"
    0.6816, // "functional design"
    1.2026, // "guys"
    1.5053, // "maybe if"
    0.1794, // "me"
    0.1958, // "and put"
    2.0927, // "it again"
    0.175, // "need"
    0.8101, // "results"
    1.24, // "i i"
    0.5716, // "meet"
    2.0854, // "helpful"
    0.508, // "you should"
    1.8937, // "ahead and"
    3.4908, // "for sure"
    -3.1015, // "industrial design"
    1.5822, // "links"
    -0.9818, // "meeting to"
    3.3473, // "pictures of"
    2.965, // "procedure"
    1.3286, // "three of"
    1.1663, // "specification"
    -1.0715, // "are going"
    -0.1905, // "not"
    2.7276, // "contact"
    -0.7613, // "out what"
    -0.2288, // "is"
    0.4965, // "of this"
    2.1908, // "machines"
    1.0245, // "you to"
    1.395, // "and sort"
    1.9082, // "be great"
    2.5933, // "design the"
    1.5741, // "much you"
    0.8057, // "the components"
    -1.0217, // "notes"
    1.4836, // "onto"
    0.322, // "what i"
    0.2076, // "i could"
    0.7188, // "to come"
    0.7169, // "get in"
    2.5421, // "play with"
    -0.4438, // "for your"
    0.2442, // "that we"
    0.9816, // "can find"
    0.8099, // "this so"
    0.3485, // "with him"
    -0.4085, // "components"
    0.4804, // "after"
    1.2134, // "thinking about"
    0.0748, // "meeting i"
    1.2362, // "pieces"
    1.0341, // "guess the"
    0.5861, // "net"
    0.343, // "actually"
    1.3396, // "how much"
    -0.0854, // "talk"
    0.8816, // "what happens"
    0.0852, // "about"
    0.2636, // "and we"
    3.6949, // "be sure"
    3.8464, // "external"
    0.1525, // "for"
    0.3638, // "us"
    0.71, // "forth"
    0.3608, // "idea is"
    1.2851, // "data we"
    2.7131, // "idea and"
    0.5123, // "in touch"
    2.761, // "long it"
    0.7675, // "project documents"
    2.297, // "set that"
    1.3371, // "should get"
    2.2196, // "start the"
    2.1406, // "you with"
    0.2813, // "you are"
    -0.0143, // "u"
    1.2087, // "actually do"
    0.4349, // "meeting and"
    0.9695, // "think about"
    1.5437, // "both of"
    -0.0925, // "this"
    1.0196, // "know what"
    0.0494, // "could"
    0.1684, // "watching"
    0.1269, // "information"
    1.274, // "be good"
    0.2254, // "with some"
    0.3988, // "these"
    0.3413, // "can try"
    1.049, // "could maybe"
    1.7315, // "description"
    2.227, // "in i"
    1.7366, // "thing which"
  ],
  phrases: [
    "i will",
    "check for",
    "transcript to",
    "for accuracy",
    "a transcript",
    "usual you",
    "send",
    "sent a",
    "and see",
    "accuracy",
    "check",
    "will",
    "to check",
    "feel design",
    "try",
    "be sent",
    "as usual",
    "look into",
    "transcript",
    "next meeting",
    "next",
    "meeting",
    "product evaluation",
    "find out",
    "the minutes",
    "next week",
    "will send",
    "try to",
    "look",
    "work on",
    "questionnaire",
    "will put",
    "the industrial",
    "be working",
    "clay",
    "interface design",
    "will try",
    "industrial",
    "will do",
    "working design",
    "the technical",
    "usual",
    "be happy",
    "do the",
    "write up",
    "design",
    "following the",
    "folder",
    "designer",
    "and",
    "user interface",
    "see if",
    "a note",
    "for next",
    "to",
    "industrial designer",
    "the working",
    "so i",
    "minutes",
    "so",
    "final",
    "i",
    "user",
    "the next",
    "technical",
    "the user",
    "gonna",
    "sent",
    "a look",
    "you will",
    "do is",
    "are gonna",
    "together on",
    "technical functions",
    "will i",
    "happy to",
    "interface designer",
    "out",
    "suggestion",
    "him",
    "tomorrow",
    "summary",
    "look at",
    "working",
    "and i",
    "interface",
    "tuesday",
    "find",
    "to you",
    "minutes and",
    "you two",
    "write",
    "work together",
    "working on",
    "disk",
    "what",
    "see",
    "meeting but",
    "see whether",
    "email",
    "the web",
    "get",
    "the final",
    "web",
    "events",
    "should try",
    "you",
    "together",
    "give them",
    "let you",
    "will be",
    "will take",
    "friday",
    "come up",
    "meeting so",
    "user requirements",
    "3",
    "monday",
    "at",
    "i can",
    "up with",
    "trend watching",
    "draft",
    "this meeting",
    "at it",
    "gonna do",
    "with",
    "okay and",
    "to write",
    "train",
    "as soon",
    "following",
    "them",
    "work",
    "soon as",
    "send it",
    "u i",
    "stage",
    "report",
    "see what",
    "do some",
    "run",
    "take a",
    "on",
    "up",
    "look and",
    "to do",
    "design and",
    "we",
    "we should",
    "the shared",
    "ok",
    "week",
    "we will",
    "the meeting",
    "the",
    "can look",
    "minutes of",
    "marketing",
    "okay then",
    "talk to",
    "will work",
    "soon",
    "happy",
    "experiment",
    "finish",
    "test",
    "will get",
    "web page",
    "gonna try",
    "shared folder",
    "prototype",
    "should",
    "can give",
    "some",
    "some more",
    "take",
    "give",
    "what we",
    "next time",
    "to work",
    "need some",
    "i need",
    "a prototype",
    "going to",
    "and feel",
    "maybe",
    "then",
    "note",
    "try it",
    "to try",
    "and then",
    "am gonna",
    "with the",
    "do",
    "the look",
    "the marketing",
    "information about",
    "intermediate",
    "modeling",
    "and try",
    "take notes",
    "three months",
    "at least",
    "yeah so",
    "to send",
    "and you",
    "i d",
    "again",
    "is to",
    "afterwards",
    "to train",
    "least",
    "d the",
    "should probably",
    "will talk",
    "just need",
    "run it",
    "to get",
    "brian",
    "to look",
    "come",
    "put",
    "evaluation",
    "forth and",
    "interface concept",
    "we can",
    "a first",
    "give me",
    "hynek",
    "the transcript",
    "timit",
    "then we",
    "from you",
    "marketing expert",
    "will make",
    "should look",
    "see how",
    "at three",
    "up some",
    "get back",
    "the management",
    "be helpful",
    "you the",
    "okay so",
    "into that",
    "ok so",
    "department",
    "again for",
    "cheating",
    "give an",
    "so anyway",
    "will actually",
    "set",
    "neural",
    "you and",
    "to see",
    "put some",
    "into",
    "back and",
    "powers",
    "data",
    "going",
    "specify",
    "it is",
    "get them",
    "r and",
    "should do",
    "thirty minutes",
    "them out",
    "initial",
    "you need",
    "you could",
    "let",
    "set of",
    "get more",
    "gonna work",
    "and get",
    "can",
    "to find",
    "and so",
    "a final",
    "hope to",
    "start",
    "requirements",
    "be",
    "will look",
    "some research",
    "okay",
    "stuff",
    "on that",
    "what people",
    "out the",
    "expert",
    "and find",
    "discuss it",
    "on with",
    "would be",
    "maybe you",
    "need to",
    "an email",
    "sufficient",
    "then i",
    "do a",
    "the plan",
    "to him",
    "will find",
    "functional design",
    "guys",
    "maybe if",
    "me",
    "and put",
    "it again",
    "need",
    "results",
    "i i",
    "meet",
    "helpful",
    "you should",
    "ahead and",
    "for sure",
    "industrial design",
    "links",
    "meeting to",
    "pictures of",
    "procedure",
    "three of",
    "specification",
    "are going",
    "not",
    "contact",
    "out what",
    "is",
    "of this",
    "machines",
    "you to",
    "and sort",
    "be great",
    "design the",
    "much you",
    "the components",
    "notes",
    "onto",
    "what i",
    "i could",
    "to come",
    "get in",
    "play with",
    "for your",
    "that we",
    "can find",
    "this so",
    "with him",
    "components",
    "after",
    "thinking about",
    "meeting i",
    "pieces",
    "guess the",
    "net",
    "actually",
    "how much",
    "talk",
    "what happens",
    "about",
    "and we",
    "be sure",
    "external",
    "for",
    "us",
    "forth",
    "idea is",
    "data we",
    "idea and",
    "in touch",
    "long it",
    "project documents",
    "set that",
    "should get",
    "start the",
    "you with",
    "you are",
    "u",
    "actually do",
    "meeting and",
    "think about",
    "both of",
    "this",
    "know what",
    "could",
    "watching",
    "information",
    "be good",
    "with some",
    "these",
    "can try",
    "could maybe",
    "description",
    "in i",
    "thing which",
  ],
  threshold: 0.58,
};

/** The L2 penalty, the positives and the number of phrases the weights were fitted with (bench/action-training.ts). */
export const ACTION_TRAINING = { l2: 10, borderline: false, phrases: 400 };
