import { ContactSection } from "./ContactSection";
import { Faq } from "./Faq";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { InPageLinks } from "./InPageLinks";
import { SkipLink } from "./SkipLink";
import { StaticSection } from "./StaticIsland";
import { Testimonials } from "./Testimonials";

/**
 * Composes the home page's sections in the order the spec fixes (the unshown ones in between).
 * Sections without client behaviour are static islands: server HTML, never hydrated, no JavaScript.
 */
export function HomePage() {
  return (
    <>
      <InPageLinks />
      <SkipLink />
      <Header />
      {/* The header is fixed: main reserves its height so nothing sits or moves under it. */}
      <main id="main" tabIndex={-1} className="pt-(--header-height) focus:outline-none">
        <StaticSection name="hero" />
        <StaticSection name="services" />
        <StaticSection name="about" />
        <StaticSection name="community" />
        <Testimonials />
        <StaticSection name="results" />
        <ContactSection />
        <StaticSection name="process" />
        <StaticSection name="academy" />
        <Faq />
      </main>
      <Footer />
    </>
  );
}
