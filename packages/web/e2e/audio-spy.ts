import type { Page } from "playwright-core";

export interface PlayedSound {
  /** The path the page asked for, e.g. "/sounds/beep.wav". */
  src: string;
  rate: number;
  preservesPitch: boolean;
}

interface SpyWindow {
  __played: PlayedSound[];
  __tones: number[];
  __failPlay: boolean;
}

/**
 * Records every sound the page asks for: each `play()` of a media element with its source and
 * playback rate, and each oscillator started (the fallback tone) with its frequency. With
 * `failPlay(page, true)` every `play()` is refused the way an autoplay policy refuses it.
 */
export async function spyOnAudio(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const spy = window as unknown as SpyWindow;
    spy.__played = [];
    spy.__tones = [];
    spy.__failPlay = false;
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      spy.__played.push({
        src: new URL(this.src).pathname,
        rate: this.playbackRate,
        preservesPitch: this.preservesPitch,
      });
      if (spy.__failPlay) return Promise.reject(new DOMException("refused", "NotAllowedError"));
      return play.call(this);
    };
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
      spy.__tones.push(this.frequency.value);
      return start.call(this, when);
    };
  });
}

export function playedSounds(page: Page): Promise<PlayedSound[]> {
  return page.evaluate(() => (window as unknown as SpyWindow).__played);
}

export function startedTones(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as SpyWindow).__tones);
}

export function failPlay(page: Page, fail: boolean): Promise<void> {
  return page.evaluate((value) => {
    (window as unknown as SpyWindow).__failPlay = value;
  }, fail);
}
