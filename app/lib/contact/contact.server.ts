import type { AppLoadContext } from "@remix-run/node";

import { env } from "~/lib/env.server";
import { createContactAction } from "~/lib/contact/action.server";
import { contactSubmitted } from "~/lib/contact/events.server";
import { logContactOutcome } from "~/lib/contact/log.server";
import type { LeadServices } from "~/lib/leads/services.server";
import { clientAddress, clientLimitKey, normalizeAddress } from "~/lib/security/proxy.server";

/**
 * The production wiring of the contact action: the lead services the server made (handed over in
 * the load context, so there is one store and one dispatcher per process whatever imports this),
 * and who the client is for the per-client limit.
 */

const actions = new WeakMap<LeadServices, ReturnType<typeof createContactAction>>();

function actionFor(leads: LeadServices) {
  let action = actions.get(leads);
  if (!action) {
    action = createContactAction({
      leads,
      log: (outcome) => {
        logContactOutcome(outcome);
        contactSubmitted.publish({ result: outcome.result });
      },
    });
    actions.set(leads, action);
  }
  return action;
}

/**
 * The client for the per-client limit: with trusted proxies, the address the outermost one saw;
 * without (or when a trusted proxy sent no usable X-Forwarded-For), the socket's own address,
 * never a header a visitor can write. An IPv6 client counts by its /64 (clientLimitKey).
 */
export function contactClient(request: Request, context: AppLoadContext): string | undefined {
  const forwarded = env.TRUST_PROXY > 0 ? clientAddress(request, env.TRUST_PROXY) : undefined;
  const address = forwarded ?? (context.socketAddress ? normalizeAddress(context.socketAddress) : undefined);
  return address === undefined ? undefined : clientLimitKey(address);
}

export async function handleContactAction(request: Request, context: AppLoadContext) {
  if (!context.leads)
    throw new Error("The server did not hand the lead services to the app (server/app.ts).");
  return actionFor(context.leads)(request, contactClient(request, context));
}
