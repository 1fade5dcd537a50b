// Debian's Chromium, driven by playwright-core, as the browser tests, the benches and the screenshot
// script launch it: never a downloaded browser (RELPOS_CHROMIUM overrides the path), headless, and
// nothing that reaches the network on its own.
import { chromium } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/** Launches Chromium with the shared flags and `extra` after them (a bench's --js-flags). */
export function launchChromium(extra = []) {
  return chromium.launch({
    executablePath: process.env.RELPOS_CHROMIUM ?? '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, ...extra],
  });
}
