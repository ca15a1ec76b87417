/** Widths of short texts in a font, measured on a canvas (no layout, no reflow), each once. */
const measured = new Map<string, Map<string, number>>();
let context: CanvasRenderingContext2D | null | undefined;
/** The font last set on the canvas: setting one parses it again, which costs more than measuring. */
let contextFont = '';
/** A text's width is within this many pixels of the sum of its characters' (kerning moves little). */
const KERNING_SLACK_PX = 3;

export function textWidth(text: string, font: string): number {
  let widths = measured.get(font);
  if (widths === undefined) {
    if (measured.size > 20) measured.clear();
    widths = new Map();
    measured.set(font, widths);
  }
  const known = widths.get(text);
  if (known !== undefined) return known;
  context ??= typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  let width = text.length * 7;
  if (context) {
    if (contextFont !== font) {
      context.font = font;
      contextFont = font;
    }
    width = context.measureText(text).width;
  }
  if (widths.size > 5000) widths.clear();
  widths.set(text, width);
  return width;
}

/**
 * The widest of many texts in a font. Each is first estimated from its characters' widths (a few
 * dozen measurements for a whole term); only those within KERNING_SLACK_PX of the widest estimate
 * are measured whole, so a term's hundreds of course codes cost a handful of measurements. The
 * answer is the one measuring every text gives, unless kerning moves a text by more than that.
 */
export function widestTextWidth(texts: readonly string[], font: string): number {
  const estimates = texts.map((text) => {
    let sum = 0;
    for (const ch of text) sum += textWidth(ch, font);
    return sum;
  });
  const widestEstimate = Math.max(0, ...estimates);
  let widest = 0;
  texts.forEach((text, i) => {
    if ((estimates[i] ?? 0) >= widestEstimate - KERNING_SLACK_PX) widest = Math.max(widest, textWidth(text, font));
  });
  return widest;
}
