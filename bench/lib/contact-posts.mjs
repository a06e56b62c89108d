// The contact POST that bench and soak send under load. Two rules of the site shape it:
// - identical requests (same e-mail and message) within ten minutes are answered as duplicates
//   without reaching the function (decision 026), so every request carries its own message;
// - a no-JavaScript submission that was sent answers 303 See Other to the success page.

/**
 * autocannon `requests` posting `fields` as a form, each request with a message of its own.
 * @param {Record<string, string>} fields @param {Record<string, string>} headers
 */
export function distinctContactPosts(fields, headers) {
  let serial = 0;
  return [
    {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      setupRequest: (request) => ({
        ...request,
        body: new URLSearchParams({
          ...fields,
          message: `${fields.message} (request ${++serial})`,
        }).toString(),
      }),
    },
  ];
}

/** How many of an autocannon run's requests were answered as sent (303 to the success page). */
export const answeredAsSent = (result) => result.statusCodeStats?.["303"]?.count ?? 0;

/** Requests that failed: errors, timeouts and every status other than the success redirect. */
export const failedPosts = (result) =>
  result.errors + result.timeouts + result.non2xx + result["2xx"] - answeredAsSent(result);
