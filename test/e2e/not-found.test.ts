import { expect, it } from "vitest";

import { describeBrowser, SIZES, useStack } from "./support/browser";
import { keepTrafficLocal } from "./support/page";

describeBrowser("404 page", () => {
  const stack = useStack();

  for (const { name, options } of SIZES) {
    it(`${name}: an unknown path answers 404, logs the path in the console, and Return to Home goes to /`, async () => {
      const context = await stack.context(options);
      await keepTrafficLocal(context);
      const page = await context.newPage();
      const messages: string[] = [];
      page.on("console", (msg) => messages.push(msg.text()));

      const path = `/no-such-page-${name}/deeper`;
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect.poll(() => page.getByText("404", { exact: true }).first().isVisible()).toBe(true);
      expect(await page.locator("body").innerText()).toMatch(/doesn.t exist|does not exist|has moved/i);
      await expect
        .poll(() => messages.some((m) => m.includes(path)), { message: messages.join("\n") })
        .toBe(true);

      await page.getByRole("link", { name: "Return to Home" }).click();
      // The page the visitor lands on, however the link navigates (no wait bound to one navigation).
      await expect.poll(() => new URL(page.url()).pathname).toBe("/");
      await expect.poll(() => page.locator("#main #services").isVisible()).toBe(true);
    });
  }
});
