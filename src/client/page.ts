/**
 * Enhances the server-rendered summary page: filters, search, jumping to lines, following media playback,
 * copying, and (on editable links) inline edits. Everything here is progressive: the page reads without it.
 * User text is only ever written with textContent or text nodes, never as HTML.
 */
import { initials } from "../pages/initials.ts";
import { $, $$, announce, lines, reducedMotion, scrollBehavior, shown, showLine } from "./dom.ts";
import { wireEditing } from "./editing.ts";
import { wireLineFocus } from "./line-focus.ts";
import { localiseTimes } from "./local-time.ts";
import {
  findLine,
  inParts,
  lineAddress,
  loadAll,
  loadPart,
  partAt,
  placeholderOf,
  wireParts,
} from "./parts.ts";
import { wireReading } from "./reading.ts";
import { wireTimelineFocus } from "./timeline-focus.ts";

const player = $<HTMLMediaElement>("#player");

/*
 * The conversation's recordings as one timeline (`data-recordings`, when it has several: an appended recording
 * continues the first): each one's URL and where it starts in the transcript's time. The player holds one of
 * them at a time; a seek into another, or the end of one, puts the other in it. A single file is a timeline
 * of one, starting at 0.
 */
interface Recording {
  url: string;
  offset: number;
  duration: number | null;
}
const recordings: Recording[] = player?.dataset.recordings
  ? (JSON.parse(player.dataset.recordings) as Recording[])
  : [];
/** The recording in the player: its place in `recordings`. */
let playing = 0;
/** The transcript's time at the player's position. */
const timelineTime = () => (recordings[playing]?.offset ?? 0) + (player?.currentTime ?? 0);
/** The recording that holds the transcript's `seconds`: the last one to start at or before them. */
const recordingAt = (seconds: number) =>
  Math.max(
    0,
    recordings.findLastIndex((recording) => recording.offset <= seconds),
  );

/* Jumping to a line (and seeking the media there, once it knows its length). */
/**
 * Whether the player plays from `seconds`: a time past the end of the recording that holds it (once that is
 * known) is not played.
 */
function plays(seconds: number): boolean {
  if (player === null || player.hidden || !Number.isFinite(seconds)) return false;
  if (recordings.length === 0) return !(seconds > player.duration);
  const index = recordingAt(seconds);
  const loaded = index === playing && player.readyState >= HTMLMediaElement.HAVE_METADATA;
  const length = loaded ? player.duration : (recordings[index]?.duration ?? Number.NaN);
  return !(seconds - (recordings[index]?.offset ?? 0) > length);
}

/** Where the recording being put in the player is to start, once it knows its length, and whether it plays on. */
let pendingStart: { at: number; play: boolean } | null = null;

/** Puts recording `index` in the player, `at` seconds into it, playing on when the player was playing. */
function load(index: number, at: number, play: boolean): void {
  const recording = recordings[index];
  if (!player || !recording) return;
  playing = index;
  pendingStart = { at, play };
  player.src = recording.url;
}

function seek(seconds: number): void {
  if (!player || !plays(seconds)) return;
  const index = recordings.length === 0 ? 0 : recordingAt(seconds);
  const at = seconds - (recordings[index]?.offset ?? 0);
  if (index !== playing) {
    load(index, at, !player.paused);
    return;
  }
  // Past the end the player would stop at its end, and following it would carry the reader away from the
  // line they asked for.
  const to = () => {
    if (plays(seconds)) player.currentTime = at;
  };
  if (pendingStart) pendingStart.at = at;
  else if (player.readyState >= HTMLMediaElement.HAVE_METADATA) to();
  else player.addEventListener("loadedmetadata", to, { once: true });
}

/**
 * Links to a line (from the overview, the outline, the timeline) jump to it, its part loaded first when the
 * transcript is in parts, and play from its time; a line's own time link plays from there. Either way the
 * address then names the line (with its part), as the line's anchor does without the script.
 */
function wireJumps(): void {
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const goto = target?.closest<HTMLAnchorElement>("a[data-goto]");
    if (goto) {
      event.preventDefault();
      const part = goto.dataset.part === undefined ? undefined : Number(goto.dataset.part);
      void findLine(goto.dataset.goto ?? "", part).then((line) => {
        if (!line) {
          location.assign(goto.href);
          return;
        }
        history.replaceState(null, "", lineAddress(line));
        // A chapter opens at its top, just below the toolbar.
        showLine(line, { focus: true, block: goto.closest(".outline") ? "start" : "center" });
        const seconds = Number(goto.dataset.seek);
        if (goto.dataset.seek === undefined || !plays(seconds)) return;
        seek(seconds);
        // The line is the one played now, and in view already: following the seek must not scroll again
        // (that carried a chapter jumped to down to the bottom of the window, under the reader's eye).
        setCurrentLine(line, false);
      });
      return;
    }
    const time = target?.closest<HTMLAnchorElement>("a.time");
    const line = time?.closest<HTMLElement>(".line");
    if (!line) return;
    const playing = player && !player.hidden && line.dataset.offset !== undefined;
    if (!playing && !inParts()) return;
    event.preventDefault();
    history.replaceState(null, "", lineAddress(line));
    if (playing) {
      seek(Number(line.dataset.offset));
      setCurrentLine(line);
    } else showLine(line);
  });
}

/**
 * Opens the page at the line an address names: `#m-<id>` (a line's own anchor) or `#t=<seconds>` (the line
 * being said then), and seeks the media there.
 */
async function openAtHash(): Promise<void> {
  const hash = location.hash.slice(1);
  const time = /^t=(\d+(?:\.\d+)?)$/.exec(hash);
  let line: HTMLElement | null = null;
  if (time) {
    const seconds = Number(time[1]);
    const part = partAt(seconds);
    if (part !== null) await loadPart(part);
    // Of the lines shown: a line of marks only ("{vocalsound}") is not on the cleaned page.
    const timed = lines().filter(
      (l) => l.dataset.offset !== undefined && Number(l.dataset.offset) <= seconds && shown(l),
    );
    line = timed.reduce<HTMLElement | null>(
      (latest, l) => (latest && Number(latest.dataset.offset) >= Number(l.dataset.offset) ? latest : l),
      null,
    );
    seek(seconds);
  } else if (hash.startsWith("m-")) {
    line = await findLine(hash.slice(2));
    if (line?.dataset.offset !== undefined) seek(Number(line.dataset.offset));
  }
  if (!line) return;
  showLine(line);
  if (player && !player.hidden) setCurrentLine(line);
}

/*
 * Media: the line being played is highlighted and, unless the viewer pauses it, followed; beside a player
 * of sound only, who is speaking is shown, in their colour.
 */
let currentLine: HTMLElement | null = null;
let following = true;
const nowSpeaking = $(".now-speaking");

function showSpeaker(line: HTMLElement | null): void {
  if (!nowSpeaking || !document.body.classList.contains("is-sound-only")) return;
  const speaker = line && !player?.hidden ? $(".speaker", line) : null;
  // Shown with nobody in it between lines, so the held player keeps its height while it plays.
  nowSpeaking.hidden = player?.hidden ?? true;
  nowSpeaking.classList.toggle("is-nobody", !speaker);
  if (!speaker) return;
  const name = speaker.textContent?.trim() ?? "";
  const memberId = speaker.dataset.memberName;
  if (memberId === undefined) delete nowSpeaking.dataset.memberId;
  else nowSpeaking.dataset.memberId = memberId;
  const avatar = $(".avatar-initials", nowSpeaking);
  const named = $(".now-speaking-name", nowSpeaking);
  if (avatar) avatar.textContent = initials(name);
  if (named) named.textContent = name;
}

function setCurrentLine(line: HTMLElement | null, scroll = true): void {
  if (line === currentLine) return;
  currentLine?.removeAttribute("aria-current");
  currentLine = line;
  showSpeaker(line);
  if (!line) return;
  line.setAttribute("aria-current", "true");
  if (following && scroll) line.scrollIntoView({ block: "nearest", behavior: scrollBehavior() });
}

/** Sound only: an audio player, or a video player whose file turns out to have no picture (an mp3 given as a video). */
function markSoundOnly(player: HTMLMediaElement): void {
  const soundOnly = () => {
    document.body.classList.add("is-sound-only");
    showSpeaker(currentLine);
  };
  if (!(player instanceof HTMLVideoElement)) soundOnly();
  else {
    const check = () => {
      if (player.videoWidth === 0) soundOnly();
    };
    if (player.readyState >= HTMLMediaElement.HAVE_METADATA) check();
    else player.addEventListener("loadedmetadata", check, { once: true });
  }
}

function wirePlayer(): void {
  if (!player) return;
  const placeholder = $(".media-placeholder");
  const toggle = $<HTMLButtonElement>("#follow-toggle");
  const fail = () => {
    player.hidden = true;
    showSpeaker(null);
    if (toggle?.parentElement) toggle.parentElement.hidden = true;
    if (placeholder) placeholder.hidden = false;
  };
  player.addEventListener("error", fail);
  player.addEventListener("loadedmetadata", () => {
    if (!pendingStart) return;
    const { at, play } = pendingStart;
    pendingStart = null;
    player.currentTime = at;
    // Playing on is the viewer's own doing (a click, or playback they started); a refusal leaves it paused there.
    if (play) player.play().catch(() => undefined);
  });
  // One recording's end plays the next from its start.
  player.addEventListener("ended", () => {
    if (playing < recordings.length - 1) load(playing + 1, 0, true);
  });
  // Only an error says the recording failed: a player still choosing its source reports NETWORK_NO_SOURCE
  // for a moment, and hiding it then hid a recording that went on to load.
  if (player.error) fail();
  markSoundOnly(player);

  const timedLines = () =>
    lines()
      .filter((line) => line.dataset.offset !== undefined)
      .map((line) => ({ line, offset: Number(line.dataset.offset) }))
      .sort((a, b) => a.offset - b.offset);
  let timed = timedLines();
  document.addEventListener("recap:lines-added", () => (timed = timedLines()));
  /** Marks the line being said at the player's time. */
  const follow = () => {
    const time = timelineTime();
    let low = 0;
    let high = timed.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if ((timed[mid]?.offset ?? Infinity) <= time + 0.05) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    setCurrentLine(found >= 0 ? (timed[found]?.line ?? null) : null);
  };
  player.addEventListener("timeupdate", () => {
    // A part being played that is not on the page comes onto it, and its line is marked then.
    const part = partAt(timelineTime());
    if (part !== null && placeholderOf(part)) void loadPart(part).then(follow);
    else follow();
  });

  if (toggle) {
    following = !reducedMotion();
    const render = () => {
      toggle.setAttribute("aria-pressed", String(following));
      toggle.textContent = following ? "Following playback" : "Follow playback";
    };
    render();
    toggle.addEventListener("click", () => {
      following = !following;
      render();
      if (following && currentLine)
        currentLine.scrollIntoView({ block: "nearest", behavior: scrollBehavior() });
    });
  }
}

/* Copy link and transcript. */
function transcriptText(): string {
  return lines()
    .filter((line) => !line.classList.contains("is-hidden"))
    .map((line) => {
      const speaker = $(".speaker", line)?.textContent?.trim() ?? "";
      const time = $(".time", line)?.textContent?.trim();
      return `${speaker}${time ? ` [${time}]` : ""}: ${$(".line-text", line)?.textContent ?? ""}`;
    })
    .join("\n");
}

async function copy(text: string, done: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    announce(done);
  } catch {
    announce("Copying is not allowed here; select the text and copy it instead.");
  }
}

function wireShare(): void {
  $("[data-action=copy-link]")?.addEventListener("click", () => void copy(location.href, "Link copied."));
  // A transcript in parts is copied whole: the parts not on the page are loaded first.
  $("[data-action=copy-transcript]")?.addEventListener(
    "click",
    () => void loadAll().then(() => copy(transcriptText(), "Transcript copied.")),
  );
}

function start(): void {
  for (const element of $$("[data-js]")) element.hidden = false;
  localiseTimes();
  wireJumps();
  wireReading();
  wireLineFocus();
  wireTimelineFocus();
  wirePlayer();
  wireShare();
  wireEditing();
  wireParts();
  void openAtHash();
  window.addEventListener("hashchange", () => void openAtHash());
}

start();
