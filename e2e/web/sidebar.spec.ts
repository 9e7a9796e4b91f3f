import { expect, test } from '../support/fixtures.js';

test('the sidebar is resized with its handle (keyboard and pointer) and keeps its width after a reload', async ({ page, launchHost }) => {
  const host = await launchHost();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(host.url);
  const sidebar = page.locator('aside.sidebar');
  const handle = page.getByTestId('sidebar-resizer');
  const width = async () => Math.round((await sidebar.boundingBox())!.width);
  expect(await width()).toBe(360);
  await handle.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  expect(await width()).toBe(424);
  await expect(handle).toHaveAttribute('aria-valuenow', '424');
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 100, box.y + 200, { steps: 5 });
  await page.mouse.up();
  expect(await width()).toBe(324);
  await page.reload();
  await expect(page.getByTestId('sidebar-resizer')).toBeVisible();
  expect(await width()).toBe(324);
});
