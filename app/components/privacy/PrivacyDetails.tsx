import type { ReactNode } from "react";

import { CONTACT_FIELDS } from "~/content/contact-fields";
import { privacyText, processorRoles } from "~/content/privacy";
import type { PrivacyFacts } from "~/lib/privacy.server";
import { HEADING_PAIR, PARAGRAPH_PAIR, withoutLoneLastWord } from "~/lib/typography";

/** Long e-mail addresses and names break anywhere rather than push the page sideways at 320 px. */
const WRAP = "[overflow-wrap:anywhere]";

const paragraph = (text: string) => <p key={text}>{withoutLoneLastWord(text, PARAGRAPH_PAIR)}</p>;

const bullets = (items: readonly string[]) => (
  <ul className="list-disc space-y-2 pl-5 marker:text-accent-700">
    {items.map((item) => (
      <li key={item}>{item}</li>
    ))}
  </ul>
);

/** A value the configuration leaves out: a dashed gap, never a placeholder that passes for real. */
function NotPublished({ label }: { label: string }) {
  return (
    <span
      data-unpublished
      className="inline-block rounded-sm border border-dashed border-ink-500 bg-ink-100 px-2 py-0.5 text-sm font-semibold text-ink-800"
    >
      {label}
    </span>
  );
}

function MailLink({ email }: { email: string }) {
  return (
    <a href={`mailto:${email}`} className={`link text-ink-950 ${WRAP}`}>
      {email}
    </a>
  );
}

function Stated({ value, children }: { value: string | null; children?: (value: string) => ReactNode }) {
  if (value === null) return <NotPublished label={privacyText.notPublished} />;
  return <>{children ? children(value) : value}</>;
}

type PartProps = { id: string; heading: string; children: ReactNode };

/** A part of the detail, under its h2: its own fragment id. */
function PrivacySection({ id, heading, children }: PartProps) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className="border-t border-ink-200 pt-10 not-first:mt-10 first:border-t-0 first:pt-0"
    >
      <h2 id={`${id}-heading`} className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">
        {withoutLoneLastWord(heading, HEADING_PAIR)}
      </h2>
      <div className="mt-4 space-y-4 leading-relaxed text-ink-600">{children}</div>
    </section>
  );
}

/** A part inside a part (what the form collects, IP addresses, cookies): its own fragment id. */
function SubPart({ id, heading, children }: PartProps) {
  return (
    <div id={id} className="space-y-4 pt-2">
      <h3 className="text-xl font-bold tracking-tight text-ink-950">
        {withoutLoneLastWord(heading, HEADING_PAIR)}
      </h3>
      {children}
    </div>
  );
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

function Dpo({ dpo }: PrivacyFacts) {
  const text = privacyText.dpo;
  if (dpo === null)
    return (
      <p>
        <NotPublished label={privacyText.notPublished} /> {text.missing}
      </p>
    );
  if (!dpo.appointed) return paragraph(text.none);
  return (
    <p>
      {text.named} <span className={`font-semibold text-ink-900 ${WRAP}`}>{dpo.contact}</span>
    </p>
  );
}

function Fields() {
  const text = privacyText.fields;
  return (
    <>
      <p>{text.intro}</p>
      <dl className="divide-y divide-ink-200 border-y border-ink-200">
        {CONTACT_FIELDS.map((field) => (
          <div key={field.name} className="py-3 sm:grid sm:grid-cols-[13rem_1fr] sm:gap-6">
            <dt className="font-semibold text-ink-900">
              {field.label}{" "}
              <span className="text-sm font-normal text-ink-600">
                ({field.required ? text.required : text.optional})
              </span>
            </dt>
            <dd>{field.purpose}</dd>
          </div>
        ))}
      </dl>
      {paragraph(text.extras)}
    </>
  );
}

function Purposes(facts: PrivacyFacts) {
  return (
    <>
      <ul className="space-y-3">
        {privacyText.purposes.items(facts).map((item) => (
          <li key={item.purpose}>
            <span className="block font-semibold text-ink-900">{item.purpose}</span>
            {item.basis}
          </li>
        ))}
      </ul>
      <SubPart id="fields" heading={privacyText.fields.heading}>
        <Fields />
      </SubPart>
      <SubPart id="ip-address" heading={privacyText.ipAddress.heading}>
        {privacyText.ipAddress.paragraphs(facts).map(paragraph)}
      </SubPart>
      <SubPart id="cookies" heading={privacyText.cookies.heading}>
        {privacyText.cookies.paragraphs(facts).map(paragraph)}
      </SubPart>
    </>
  );
}

const Interests = () => (
  <>
    {bullets(privacyText.interests.items)}
    {paragraph(privacyText.interests.object)}
  </>
);

function Recipients(facts: PrivacyFacts) {
  const text = privacyText.recipients;
  return (
    <>
      {paragraph(text.intro(facts))}
      <ul className="space-y-3">
        {facts.processors.map((processor) => {
          const role = processorRoles[processor.role];
          return (
            <li key={processor.role} data-processor={processor.role}>
              <span className="block font-semibold text-ink-900">{role.label}</span>
              {processor.name === null ? (
                <NotPublished label={privacyText.notNamed} />
              ) : (
                <span className={`font-semibold text-ink-900 ${WRAP}`}>{processor.name}</span>
              )}{" "}
              {role.does(facts)}{" "}
              <span className="block">
                {text.where}{" "}
                <span className={WRAP}>
                  <Stated value={processor.region} />
                </span>
              </span>
            </li>
          );
        })}
      </ul>
      {paragraph(text.nobodyElse)}
    </>
  );
}

function Transfers({ transferSafeguards }: PrivacyFacts) {
  const text = privacyText.transfers;
  return (
    <>
      {paragraph(text.intro)}
      <p>
        {text.safeguards}{" "}
        <span className={WRAP}>
          <Stated value={transferSafeguards} />
        </span>
      </p>
      {paragraph(text.copy)}
    </>
  );
}

function Retention(facts: PrivacyFacts) {
  const text = privacyText.retention;
  return (
    <>
      {bullets(text.rules(facts))}
      <SubPart id="copies" heading={text.copiesHeading}>
        {bullets(text.copies(facts))}
      </SubPart>
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
          <MailLink email={text.fallbackEmail} />. {text.howToAfter}
        </p>
      ) : (
        <p>
          {text.howTo} <MailLink email={controller.email} />. {text.howToAfter}
        </p>
      )}
      {text.what.map(paragraph)}
    </>
  );
}

const Consent = (facts: PrivacyFacts) => <>{privacyText.consent.paragraphs(facts).map(paragraph)}</>;

const Complaint = () => paragraph(privacyText.complaint.text);

const Voluntary = () => paragraph(privacyText.voluntary.text);

const Automated = (facts: PrivacyFacts) => <>{privacyText.automated.paragraphs(facts).map(paragraph)}</>;

/** In the order of GDPR article 13(1)(a)-(f) and 13(2)(a)-(f) (decision 047). */
const PARTS: { id: string; heading: string; Body: (facts: PrivacyFacts) => ReactNode }[] = [
  { id: "controller", heading: privacyText.controller.heading, Body: Controller },
  { id: "dpo", heading: privacyText.dpo.heading, Body: Dpo },
  { id: "purposes", heading: privacyText.purposes.heading, Body: Purposes },
  { id: "interests", heading: privacyText.interests.heading, Body: Interests },
  { id: "recipients", heading: privacyText.recipients.heading, Body: Recipients },
  { id: "transfers", heading: privacyText.transfers.heading, Body: Transfers },
  { id: "retention", heading: privacyText.retention.heading, Body: Retention },
  { id: "rights", heading: privacyText.rights.heading, Body: Rights },
  { id: "consent", heading: privacyText.consent.heading, Body: Consent },
  { id: "complaint", heading: privacyText.complaint.heading, Body: Complaint },
  { id: "voluntary", heading: privacyText.voluntary.heading, Body: Voluntary },
  { id: "automated", heading: privacyText.automated.heading, Body: Automated },
];

/** The page's second layer: each point of the summary in full, after a list of the parts. */
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
