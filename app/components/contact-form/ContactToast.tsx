import * as Toast from "@radix-ui/react-toast";

import { contactNotices } from "~/content/contact-form";
import type { ContactNotice } from "~/lib/contact/types";

export interface ToastNotice extends ContactNotice {
  /** A new id re-opens the toast even for the same text. */
  id: number;
}

interface ContactToastProps {
  notice: ToastNotice | null;
  onClose: () => void;
}

/** At the top of the screen, so it never covers the submit button on a phone. */
export default function ContactToast({ notice, onClose }: ContactToastProps) {
  const error = notice?.kind === "error";
  return (
    <Toast.Provider swipeDirection="up" label={contactNotices.toastRegionLabel}>
      {notice ? (
        <Toast.Root
          key={notice.id}
          type={error ? "foreground" : "background"}
          duration={error ? 10_000 : 6_000}
          defaultOpen
          onOpenChange={(open) => {
            if (!open) onClose();
          }}
          data-kind={notice.kind}
          className={
            "pointer-events-auto relative flex w-full items-start gap-3 rounded-md border p-4 pr-12 shadow-lift " +
            (error ? "border-red-700 bg-red-700 text-white" : "border-ink-200 bg-white text-ink-950")
          }
        >
          <div className="min-w-0">
            <Toast.Title className="font-semibold">{notice.title}</Toast.Title>
            <Toast.Description className={"mt-1 text-sm " + (error ? "text-white" : "text-ink-700")}>
              {notice.description}
            </Toast.Description>
          </div>
          <Toast.Close
            aria-label={contactNotices.dismiss}
            className={
              "absolute top-3 right-3 inline-flex size-8 items-center justify-center rounded-full focus-visible:outline-offset-0 " +
              (error ? "hover:bg-red-800 focus-visible:outline-white" : "hover:bg-ink-100")
            }
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="size-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
            >
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </Toast.Close>
        </Toast.Root>
      ) : null}
      <Toast.Viewport className="fixed inset-x-0 top-0 z-[100] m-0 flex list-none flex-col gap-2 p-3 outline-none sm:top-4 sm:right-4 sm:left-auto sm:w-96 sm:p-0" />
    </Toast.Provider>
  );
}
