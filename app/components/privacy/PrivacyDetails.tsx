import type { ReactNode } from "react";

import { fieldPurposes, privacyText, processorRoles } from "~/content/privacy";
import type { PrivacyFacts } from "~/lib/privacy.server";
import { PARAGRAPH_PAIR, withoutLoneLastWord } from "~/lib/typography";

import { NotPublished } from "./NotPublished";
import { PrivacySection } from "./PrivacySection";

/** Long e-mail addresses and names break anywhere rather than push the page sideways at 320 px. */
const WRAP = "[overflow-wrap:anywhere]";

const paragraph = (text: string) => <p key={text}>{withoutLoneLastWord(text, PARAGRAPH_PAIR)}</p>;

function MailLink({ email }: { email: string }) {
  return (
    <a href={`mailto:${email}`} className={`link text-ink-950 ${WRAP}`}>
      {email}
    </a>
  );
}

/** A configured value, or the mark that it is missing. */
function Stated({ value, children }: { value: string | null; children?: (value: string) => ReactNode }) {
  if (value === null) return <NotPublished label={privacyText.notPublished} />;
  return <>{children ? children(value) : value}</>;
}

function Controller({ controller }: PrivacyFacts) {
  const text = privacyText.controller;
  const missing = Object.values(controller).some((value) => value === null);
  return (
    <>
      <p>{text.intro}</p>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold text-ink-900">{text.labels.name}</dt>
        <dd className={WRAP}>
          <Stated value={controller.name} />
        </dd>
        <dt className="font-semibold text-ink-900">{text.labels.address}</dt>
        <dd className={WRAP}>
          <Stated value={controller.address} />
        </dd>
        <dt className="font-semibold text-ink-900">{text.labels.email}</dt>
        <dd>
          <Stated value={controller.email}>{(email) => <MailLink email={email} />}</Stated>
        </dd>
      </dl>
      {missing ? <p data-unpublished-note>{text.missing}</p> : null}
    </>
  );
}

function Fields({ fields }: PrivacyFacts) {
  const text = privacyText.fields;
  return (
    <>
      <p>{text.intro}</p>
      <dl className="divide-y divide-ink-200 border-y border-ink-200">
        {fields.map((field) => (
          <div key={field.name} className="py-3 sm:grid sm:grid-cols-[13rem_1fr] sm:gap-6">
            <dt className="font-semibold text-ink-900">
              {field.label}{" "}
              <span className="text-sm font-normal text-ink-600">
                ({field.required ? text.required : text.optional})
              </span>
            </dt>
            <dd>{fieldPurposes[field.name]}</dd>
          </div>
        ))}
      </dl>
      {paragraph(text.extras)}
    </>
  );
}

function Purposes(facts: PrivacyFacts) {
  const text = privacyText.purposes;
  return (
    <>
      <ul className="space-y-3">
        {text.items(facts).map((item) => (
          <li key={item.purpose}>
            <span className="block font-semibold text-ink-900">{item.purpose}</span>
            {item.basis}
          </li>
        ))}
      </ul>
      {paragraph(text.voluntary)}
    </>
  );
}

function Recipients(facts: PrivacyFacts) {
  const text = privacyText.recipients;
  return (
    <>
      {paragraph(text.intro(facts))}
      <ul className="space-y-3">
        {facts.processors.map((processor) => {
          const role = processorRoles[processor.role];
          return (
            <li key={processor.role}>
              <span className="block font-semibold text-ink-900">{role.label}</span>
              {processor.name === null ? (
                <NotPublished label={privacyText.notNamed} />
              ) : (
                <span className={`font-semibold text-ink-900 ${WRAP}`}>{processor.name}</span>
              )}{" "}
              {role.does(facts)}
            </li>
          );
        })}
      </ul>
      {paragraph(text.nobodyElse)}
    </>
  );
}

function Rights({ controller }: PrivacyFacts) {
  const text = privacyText.rights;
  return (
    <>
      <ul className="list-disc space-y-2 pl-5 marker:text-accent-700">
        {text.list.map((right) => (
          <li key={right.name}>
            <span className="font-semibold text-ink-900">{right.name}:</span> {right.text}
          </li>
        ))}
      </ul>
      {controller.email === null ? (
        <p>
          <NotPublished label={privacyText.notPublished} /> {text.noContact}{" "}
          <MailLink email={text.fallbackEmail} />.
        </p>
      ) : (
        <p>
          {text.howTo} <MailLink email={controller.email} />. {text.howToAfter}
        </p>
      )}
      {paragraph(text.complaint)}
    </>
  );
}

function Retention(facts: PrivacyFacts) {
  return (
    <ul className="list-disc space-y-2 pl-5 marker:text-accent-700">
      {privacyText.retention.rules(facts).map((rule) => (
        <li key={rule}>{rule}</li>
      ))}
    </ul>
  );
}

const IpAddress = (facts: PrivacyFacts) => <>{privacyText.ipAddress.paragraphs(facts).map(paragraph)}</>;

const Cookies = (facts: PrivacyFacts) => <>{privacyText.cookies.paragraphs(facts).map(paragraph)}</>;

/** The detail, in reading order: each part's fragment id, heading and body. */
const PARTS: { id: string; heading: string; Body: (facts: PrivacyFacts) => ReactNode }[] = [
  { id: "controller", heading: privacyText.controller.heading, Body: Controller },
  { id: "fields", heading: privacyText.fields.heading, Body: Fields },
  { id: "purposes", heading: privacyText.purposes.heading, Body: Purposes },
  { id: "recipients", heading: privacyText.recipients.heading, Body: Recipients },
  { id: "retention", heading: privacyText.retention.heading, Body: Retention },
  { id: "ip-address", heading: privacyText.ipAddress.heading, Body: IpAddress },
  { id: "cookies", heading: privacyText.cookies.heading, Body: Cookies },
  { id: "rights", heading: privacyText.rights.heading, Body: Rights },
];

/**
 * The page's second layer: each thing the summary says, in full, with where it applies. A list of
 * the parts comes first (beside them, and staying in view, from lg), plain fragment links.
 */
export function PrivacyDetails({ facts }: { facts: PrivacyFacts }) {
  return (
    <div className="bg-paper py-14 sm:py-20">
      <div className="shell grid gap-10 lg:grid-cols-[minmax(0,48rem)_15rem] lg:justify-between lg:gap-16">
        <nav
          aria-labelledby="on-this-page"
          className="lg:sticky lg:top-[calc(var(--header-height)+2.5rem)] lg:col-start-2 lg:row-start-1 lg:self-start"
        >
          <h2 id="on-this-page" className="eyebrow">
            {privacyText.onThisPage}
          </h2>
          <ol className="mt-3 space-y-2 border-l border-ink-200 pl-4">
            {PARTS.map((part) => (
              <li key={part.id}>
                <a
                  href={`#${part.id}`}
                  className="text-ink-700 underline-offset-4 hover:text-ink-950 hover:underline"
                >
                  {part.heading}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="lg:col-start-1 lg:row-start-1">
          {PARTS.map(({ id, heading, Body }) => (
            <PrivacySection key={id} id={id} heading={heading}>
              <Body {...facts} />
            </PrivacySection>
          ))}
        </div>
      </div>
    </div>
  );
}
