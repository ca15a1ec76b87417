/** Widths of short texts in a font, measured once each on a canvas (no layout, no reflow). */
const cache = new Map<string, number>();
let context: CanvasRenderingContext2D | null | undefined;

export function textWidth(text: string, font: string): number {
  const key = `${font}|${text}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  context ??= typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  let width = text.length * 7;
  if (context) {
    context.font = font;
    width = context.measureText(text).width;
  }
  if (cache.size > 5000) cache.clear();
  cache.set(key, width);
  return width;
}
