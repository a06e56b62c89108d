import type { Page, Request } from "playwright-core";
import { beforeEach, expect, it } from "vitest";

import { describeBrowser, DESKTOP, PHONE, useStack } from "./support/browser";
import {
  answeredSubmissions,
  contactValues,
  countPosts,
  fillContact,
  serverNotice,
  submitAndSettle,
  submitButton,
  waitForFormAtRest,
  toast,
} from "./support/page";
import { SEND_ERROR, SUCCESS, uniqueContact } from "./support/spec-texts";

/**
 * Every lead exactly once, whatever the visitor's browser does (decision 026): a reload or
 * back/forward after a no-JavaScript success sends nothing, and with JavaScript the page survives
 * its network: no data request after a submission, no error page when one fails.
 */

const isData = (request: Request) => new URL(request.url()).pathname.endsWith(".data");

describeBrowser("every lead exactly once, in the browser", () => {
  const stack = useStack();

  beforeEach(() => {
    stack.fake.reset();
  });

  const expectNoErrorScreen = async (page: Page) => {
    expect(await page.getByText("Unexpected Application Error!").count()).toBe(0);
    expect(await page.locator("#contact form").count()).toBe(1);
  };

  // On a phone too, the one call and its notice: engines-visitor.test.ts.
  it("JS off: submit, reload, back and forward: one call, the notice after the redirect", async () => {
    const page = await stack.page({ ...DESKTOP, javaScriptEnabled: false });
    const values = uniqueContact();
    await fillContact(page, values);
    await submitAndSettle(page, () => submitButton(page).click(), /\?contact=sent#contact-form$/);
    const notice = serverNotice(page, "status", SUCCESS.title);
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.innerText()).toContain(SUCCESS.text);
    expect(Object.values(await contactValues(page)).every((value) => value === "")).toBe(true);
    expect(stack.fake.requests).toHaveLength(1);

    // What a visitor does next: reload (no "resubmit the form?"), go back, go forward again.
    const reload = await page.reload();
    expect(reload?.request().method()).toBe("GET");
    expect(await serverNotice(page, "status", SUCCESS.title).isVisible()).toBe(true);
    await page.goBack();
    expect(new URL(page.url()).search).toBe("");
    await page.goForward();
    expect(new URL(page.url()).search).toBe("?contact=sent");
    expect((await page.reload())?.request().method()).toBe("GET");
    expect(stack.fake.requests).toHaveLength(1);
    expect(stack.fake.requests[0]!.json).toEqual(values);
  });

  it("JS off: a double click on Send Message makes one call", async () => {
    stack.fake.setMode({ kind: "slow", delayMs: 600 });
    const page = await stack.page({ ...DESKTOP, javaScriptEnabled: false });
    await fillContact(page, uniqueContact());
    const answeredBefore = answeredSubmissions(stack.app.output());
    const posts = countPosts(page);
    // A POST that got its answer reached the server; one the second click aborted may never have.
    // The one call is made by the success page: an aborted POST arriving later is a duplicate.
    const answeredPosts = { count: 0 };
    page.on("requestfinished", (request) => {
      if (request.method() === "POST") answeredPosts.count += 1;
    });
    await submitAndSettle(page, () => submitButton(page).dblclick(), /\?contact=sent/);
    expect(await serverNotice(page, "status", SUCCESS.title).isVisible()).toBe(true);
    expect(answeredPosts.count).toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => answeredSubmissions(stack.app.output()) - answeredBefore, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(answeredPosts.count);
    expect(answeredSubmissions(stack.app.output()) - answeredBefore).toBeLessThanOrEqual(posts.count);
    expect(stack.fake.requests).toHaveLength(1);
  });

  it("JS on: a success and a failure ask for no *.data beyond their own POSTs; and with every GET *.data failing, they leave the page, the toast and the values", async () => {
    const page = await stack.page(PHONE, {
      before: (p) =>
        p.route(
          (url) => url.pathname.endsWith(".data"),
          (route) =>
            route.request().method() === "GET" ? route.abort("internetdisconnected") : route.continue(),
        ),
    });
    const dataRequests: string[] = [];
    page.on("request", (request) => {
      if (isData(request)) dataRequests.push(`${request.method()} ${request.url()}`);
    });
    await fillContact(page, uniqueContact());
    await submitButton(page).click();
    await expect.poll(() => toast(page, SUCCESS.title).isVisible(), { timeout: 8000 }).toBe(true);
    await expectNoErrorScreen(page);
    expect(Object.values(await contactValues(page)).every((value) => value === "")).toBe(true);

    stack.fake.setMode({ kind: "status", status: 500 });
    const values = uniqueContact();
    await fillContact(page, values);
    await submitButton(page).click();
    await expect.poll(() => toast(page, SEND_ERROR.title).isVisible(), { timeout: 8000 }).toBe(true);
    await waitForFormAtRest(page);
    await expectNoErrorScreen(page);
    expect(await contactValues(page)).toEqual(values);
    expect(stack.fake.requests).toHaveLength(2);
    // The two actions themselves, and nothing else: no revalidation.
    expect(dataRequests.map((line) => line.split(" ")[0])).toEqual(["POST", "POST"]);
  });

  it("JS on: the action's own request lost on the network: the error toast, the values kept, no error page", async () => {
    const page = await stack.page(PHONE, {
      before: (p) =>
        p.route(
          (url) => url.pathname.endsWith(".data"),
          (route) => route.abort("connectionreset"),
        ),
    });
    const values = uniqueContact();
    await fillContact(page, values);
    await submitButton(page).click();
    const notice = toast(page, SEND_ERROR.title);
    await expect.poll(() => notice.isVisible(), { timeout: 8000 }).toBe(true);
    expect(await notice.innerText()).toContain(SEND_ERROR.text);
    await expectNoErrorScreen(page);
    expect(await contactValues(page)).toEqual(values);
    expect(await submitButton(page).isDisabled()).toBe(false);
    expect(stack.fake.requests).toHaveLength(0);
  });
});
