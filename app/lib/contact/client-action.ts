import { contactNotices } from "~/content/contact-form";
import type { ContactActionData } from "~/lib/contact/types";

/**
 * Runs the server action for an enhanced submission. An exception here is the network's, which
 * would otherwise replace the page with the error screen and lose what the visitor typed.
 */
export async function runContactServerAction(
  serverAction: () => Promise<unknown>,
): Promise<ContactActionData> {
  try {
    return (await serverAction()) as ContactActionData;
  } catch (error) {
    console.error("Contact form: the request did not reach the server", error);
    return { notice: { kind: "error", ...contactNotices.sendFailed } };
  }
}
