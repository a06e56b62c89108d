import { contactNotices } from "~/content/contact-form";
import type { ContactActionData } from "~/lib/contact/types";

/**
 * Runs the server action for an enhanced submission. The server answers every outcome as data;
 * what reaches here as an exception is the network (offline, a proxy's HTML error page), which
 * would otherwise replace the whole page with the error screen and lose what the visitor typed.
 * It becomes the spec's error notice instead; the fields keep their values.
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
