import type { Locator, Page } from '@playwright/test';

/** Drawn blocks whose course code does not fit inside the block (cut by its edge or by an ellipsis). */
export async function cutCodes(page: Page): Promise<{ blocks: number; cut: string[] }> {
  return page.evaluate(() => {
    type Box = { right: number; left: number };
    type El = { getBoundingClientRect(): Box; closest(s: string): El | null; textContent: string | null };
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }).document;
    const codes = Array.from(doc.querySelectorAll('[data-testid="event-code"]'));
    const cut = codes.filter((code) => {
      const block = code.closest('.fc-event');
      if (!block) return true;
      const b = block.getBoundingClientRect();
      const c = code.getBoundingClientRect();
      return c.right > b.right - 1 || c.left < b.left;
    });
    return { blocks: codes.length, cut: cut.map((c) => c.textContent ?? '') };
  });
}

/** Presses Tab until `target` has the focus, as a keyboard user moves through the screen. */
export async function tabTo(page: Page, target: Locator, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Not reachable with Tab in ${limit} presses`);
}
