import { Fragment } from "react";

import { chatbotFlow, services, servicesIntro } from "~/content/services";
import type { Service } from "~/content/types";
import { PARAGRAPH_PAIR, TITLE_PAIR, withoutLoneLastWord } from "~/lib/typography";

import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

export function ServicesContent() {
  const [first, ...rest] = services;
  const last = rest.pop();
  if (!first || !last) return null;
  return (
    <div className="shell">
      <SectionHeading intro={servicesIntro} id="services-heading" align="split" />
      <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:mt-14 lg:grid-cols-3 lg:gap-5">
        <li className="on-ink grid items-center gap-6 rounded-md bg-ink-950 p-6 text-white sm:col-span-2 md:grid-cols-[1fr_1.1fr] lg:p-8">
          <ServiceText service={first} />
          <FlowDiagram />
        </li>
        {rest.map((service) => (
          <li key={service.title} className="card p-6 lg:p-7">
            <ServiceText service={service} />
          </li>
        ))}
        <li className="card grid p-6 sm:col-span-2 lg:col-span-3 lg:grid-cols-[1fr_1fr] lg:items-center lg:gap-6 lg:p-7">
          <ServiceText service={last} wide />
        </li>
      </ul>
    </div>
  );
}

function ServiceText({ service, wide = false }: { service: Service; wide?: boolean }) {
  const intro = (
    <div>
      {/* The icon above the title, which needs the card's whole width. */}
      <span className="icon-tile in-[.on-ink]:bg-accent-400 in-[.on-ink]:text-ink-950">
        <Icon name={service.icon} className="size-5" />
      </span>
      <h3 className="mt-4 text-lg leading-snug font-bold tracking-tight">
        {withoutLoneLastWord(service.title, TITLE_PAIR)}
      </h3>
      <p className="mt-3 leading-relaxed text-ink-600 in-[.on-ink]:text-ink-300">
        {withoutLoneLastWord(service.description, PARAGRAPH_PAIR)}
      </p>
    </div>
  );
  const features = (
    <ul
      className={`features ${
        wide
          ? "lg:mt-0 lg:grid lg:grid-cols-3 lg:gap-4 lg:space-y-0 lg:border-t-0 lg:border-l lg:pt-0 lg:pl-6"
          : ""
      }`}
    >
      {service.features.map((feature) => (
        // Balanced: a wrapping item splits evenly, not leaving its last word alone.
        <li key={feature} className="flex items-start gap-2.5 text-balance">
          <Icon
            name="check"
            className="mt-0.5 size-4 shrink-0 text-accent-800 in-[.on-ink]:text-accent-400"
          />
          {withoutLoneLastWord(feature)}
        </li>
      ))}
    </ul>
  );
  // The wide card's grid places the two side by side; elsewhere they stack in one box.
  const Box = wide ? Fragment : "div";
  return (
    <Box>
      {intro}
      {features}
    </Box>
  );
}

const FLOW_ROWS = [28, 75, 122];

function Pills({ x, labels, className }: { x: number; labels: readonly string[]; className: string }) {
  return (
    <g className={className} textAnchor="middle">
      {labels.map((label, index) => (
        <g key={label} transform={`translate(${x} ${(FLOW_ROWS[index] ?? 0) - 14})`}>
          <rect width="74" height="28" rx="14" />
          <text x="37" y="18" stroke="none">
            {label}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Decorative: the card's text says it. */
function FlowDiagram() {
  const curves = (from: number, to: number, mirrored: boolean) =>
    FLOW_ROWS.map((y) =>
      mirrored
        ? `M${from} 75C${from + 22} 75 ${from + 24} ${y} ${to} ${y}`
        : `M${from} ${y}C${from + 36} ${y} ${from + 38} 75 ${to} 75`,
    ).join("");
  return (
    <svg
      viewBox="0 0 320 150"
      aria-hidden="true"
      className="w-full max-w-md justify-self-center text-[11px] font-semibold"
      fill="none"
      strokeWidth="1.5"
    >
      <path d={curves(74, 134, false)} className="stroke-white/25" />
      <path d={curves(186, 246, true)} className="stroke-accent-400/70" />
      <Pills
        x={0}
        labels={chatbotFlow.inputs}
        className="fill-white/5 stroke-white/25 [&_text]:fill-ink-200"
      />
      <circle cx="160" cy="75" r="30" strokeWidth="8" className="fill-accent-400 stroke-accent-400/30" />
      <text x="160" y="80" textAnchor="middle" className="fill-ink-950 text-[15px] font-bold">
        {chatbotFlow.hub}
      </text>
      <Pills
        x={246}
        labels={chatbotFlow.outputs}
        className="fill-accent-400/10 stroke-accent-400/60 [&_text]:fill-accent-200"
      />
    </svg>
  );
}
