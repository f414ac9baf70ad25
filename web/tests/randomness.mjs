// Watches where a page's randomness comes from, from before its first script runs: the size of
// every crypto.getRandomValues draw, and how often Math.random is called (a formation must
// come from at least 64 secret bits, never from Math.random or a clock).
export async function watchRandomness(page) {
  await page.addInitScript(() => {
    const seen = { crypto: [], math: 0 };
    window.__randomness = seen;
    const draw = crypto.getRandomValues.bind(crypto);
    crypto.getRandomValues = (array) => {
      seen.crypto.push(array.byteLength);
      return draw(array);
    };
    const math = Math.random;
    Math.random = () => {
      seen.math += 1;
      return math();
    };
  });
}

// What the page has drawn so far: {crypto: [bytes of each draw], math: calls}.
export function randomness(page) {
  return page.evaluate(() => ({ crypto: [...window.__randomness.crypto], math: window.__randomness.math }));
}
