import * as Accordion from "@radix-ui/react-accordion";

import type { Faq } from "~/content/types";

import { Icon } from "./Icon";

interface FaqAccordionProps {
  items: Faq[];
  defaultValue?: string;
}

/** Radix accordion (one open at most, collapsible); loaded on demand by `Faq.tsx`. */
export function FaqAccordion({ items, defaultValue }: FaqAccordionProps) {
  return (
    <Accordion.Root type="single" collapsible defaultValue={defaultValue} className="space-y-3">
      {items.map((faq, index) => (
        <Accordion.Item key={faq.question} value={`faq-${index}`} className="faq-item">
          <Accordion.Header asChild>
            <h3>
              <Accordion.Trigger data-faq-trigger={index} className="faq-question">
                {faq.question}
                <span className="faq-chevron">
                  <Icon name="close" className="size-4 rotate-45" />
                </span>
              </Accordion.Trigger>
            </h3>
          </Accordion.Header>
          <Accordion.Content className="faq-answer">
            <p>{faq.answer}</p>
          </Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
