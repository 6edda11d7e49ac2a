import { nextTick, onBeforeUnmount, onMounted, watch, type Ref, type WatchSource } from 'vue';

/** A step picture's shape in run mode: the site's step pictures are 4:3 (Dozuki's `standard`, 592×444). */
export const PICTURE_ASPECT = 4 / 3;
/** The thumbnail (136 px wide): the pictures' size where the room under the instructions is short of it. */
export const PICTURE_MIN_HEIGHT = 102;
/** Down to this (104 px wide) a picture shrinks below the thumbnail when that keeps it whole in view. */
export const PICTURE_WHOLE_HEIGHT = 78;
/** A video far short of room: the player's own size (300×225), or less on a window under 500 px high. */
export const VIDEO_SHORT_HEIGHT = 225;
/** The largest: the step size the site makes and the laptop keeps (592×444); larger would only blur it. */
export const PICTURE_MAX_HEIGHT = 444;

export interface PictureRoom {
  /** How many pictures the step has. */
  count: number;
  /** The width of the row they sit in, and the height from its top to the step bar. */
  width: number;
  height: number;
  /** What the step's card and the step area keep under the pictures (their padding): seen when it fits. */
  margin: number;
  /** The space between two pictures, across and down. */
  gap: number;
}

/**
 * The largest height at which `count` pictures (all the same size, in rows) sit whole in `width` and
 * `height`, up to the step size. Each number of rows is tried: the pictures per row make them as wide as
 * the row allows, and the rows as tall as the height allows; the smaller of the two is what it gives.
 */
function largest(count: number, width: number, height: number, gap: number): number {
  let best = 0;
  for (let rows = 1; rows <= count; rows++) {
    const perRow = Math.ceil(count / rows);
    const byWidth = (width - (perRow - 1) * gap) / perRow / PICTURE_ASPECT;
    const byHeight = (height - (rows - 1) * gap) / rows;
    best = Math.max(best, Math.min(byWidth, byHeight, PICTURE_MAX_HEIGHT));
  }
  return best;
}

/**
 * The height of a run-mode step's pictures: as large as the room under the instructions allows with the
 * card's and the area's padding in view too, when that is at least the thumbnail; else the thumbnail if it
 * is whole above the step bar; else, a little short of that, as large as keeps them whole (a picture cut by
 * a few pixels looks broken); far short, the thumbnail, and the step area scrolls to them.
 */
export function pictureHeight({ count, width, height, margin, gap }: PictureRoom): number {
  if (count < 1) return PICTURE_MIN_HEIGHT;
  const grown = largest(count, width, height - margin, gap);
  if (grown >= PICTURE_MIN_HEIGHT) return Math.floor(grown);
  const whole = largest(count, width, height, gap);
  if (whole >= PICTURE_MIN_HEIGHT || whole < PICTURE_WHOLE_HEIGHT) return PICTURE_MIN_HEIGHT;
  return Math.floor(whole);
}

/** The nearest ancestor that scrolls up and down: the step area of run mode. */
function scrollerOf(el: HTMLElement): HTMLElement | null {
  for (let at = el.parentElement; at; at = at.parentElement) {
    if (/(auto|scroll)/.test(getComputedStyle(at).overflowY)) return at;
  }
  return null;
}

/**
 * Sizes the pictures (or the video) of the step shown in `root` (`.step-images`, inside the step's card `.step`) to the
 * room the step area has under them: on a tall screen a technician sees the picture without opening it,
 * on a small one the pictures stay thumbnails and the instructions stay whole. Sets `--picture-height` on
 * the pictures' row; measured again when the step area or the step changes size, and when `step` changes.
 */
export function usePictureRoom(root: Ref<HTMLElement | null>, step: WatchSource<unknown>): void {
  let observer: ResizeObserver | null = null;
  let added: MutationObserver | null = null;
  let frame = 0;
  let scroller: HTMLElement | null = null;

  function measure(): void {
    frame = 0;
    // A step's video is sized as one picture: it stayed the player's 300x225 at every size (found by a walk).
    const images = root.value?.querySelector<HTMLElement>('.step-images, .step-media[data-media="video"]');
    const card = images?.closest<HTMLElement>('.step');
    if (!images || !card || !scroller) return;
    const area = scroller.getBoundingClientRect();
    const box = images.getBoundingClientRect();
    // Where the pictures start in the step area's content, and what the card and the area keep under them;
    // from under the session's header where it scrolls away with the step (a step opens under it): sized
    // with it, a video at 200 % zoom was a 136x102 thumbnail.
    const pane = scroller;
    const inContent = (y: number) => y - area.top - pane.clientTop + pane.scrollTop;
    const header = pane.querySelector<HTMLElement>(':scope > .session-header');
    const top = inContent(box.top) - (header ? inContent(header.getBoundingClientRect().bottom) : 0);
    const under =
      card.getBoundingClientRect().bottom - box.bottom + parseFloat(getComputedStyle(scroller).paddingBottom);
    const video = !images.matches('.step-images');
    const fitted = pictureHeight({
      count: video ? 1 : images.children.length,
      width: images.clientWidth,
      height: scroller.clientHeight - top,
      margin: under,
      gap: parseFloat(getComputedStyle(images).rowGap) || 0,
    });
    // Far short of room, a video is not a thumbnail: at 136x102 its player kept only ▶ and ⋮ (at 200 % zoom).
    const height = video && fitted <= PICTURE_MIN_HEIGHT ? Math.min(VIDEO_SHORT_HEIGHT, 0.45 * innerHeight) : fitted;
    // Within a pixel: the same (a new size re-measures, and must settle).
    const now = parseFloat(images.style.getPropertyValue('--picture-height'));
    if (!(Math.abs(now - height) < 1)) images.style.setProperty('--picture-height', `${height}px`);
  }
  // After the layout of this frame (a size set inside an observer's callback would loop it).
  const soon = () => {
    if (!frame) frame = requestAnimationFrame(measure);
  };

  onMounted(() => {
    if (!root.value) return;
    scroller = scrollerOf(root.value);
    observer = new ResizeObserver(soon);
    observer.observe(root.value);
    if (!scroller) return soon();
    observer.observe(scroller);
    // What stands above the step in the step area: a notice that comes, grows or goes there moves the step
    // without changing its size or the area's (the revised guide's notice, come with the step on screen, put
    // its picture under the step bar at 800x1280 with Larger text). Each is watched, and each one added.
    for (const above of scroller.children) observer.observe(above);
    added = new MutationObserver((changes) => {
      for (const node of changes.flatMap((change) => [...change.addedNodes]))
        if (node instanceof Element) observer?.observe(node);
      soon();
    });
    added.observe(scroller, { childList: true });
    soon();
  });
  watch(step, () => void nextTick(soon));
  onBeforeUnmount(() => {
    observer?.disconnect();
    added?.disconnect();
    if (frame) cancelAnimationFrame(frame);
  });
}
