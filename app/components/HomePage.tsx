import { About } from "./About";
import { Academy } from "./Academy";
import { Community } from "./Community";
import { ContactSection } from "./ContactSection";
import { Faq } from "./Faq";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { Hero } from "./Hero";
import { InPageLinks } from "./InPageLinks";
import { Process } from "./Process";
import { Results } from "./Results";
import { Services } from "./Services";
import { SkipLink } from "./SkipLink";
import { Testimonials } from "./Testimonials";

/** Composes the home page's sections in the order the spec fixes (the unshown ones in between). */
export function HomePage() {
  return (
    <>
      <InPageLinks />
      <SkipLink />
      <Header />
      {/* The header is fixed: main reserves its height so nothing sits or moves under it. */}
      <main id="main" tabIndex={-1} className="pt-(--header-height) focus:outline-none">
        <Hero />
        <Services />
        <About />
        <Community />
        <Testimonials />
        <Results />
        <ContactSection />
        <Process />
        <Academy />
        <Faq />
      </main>
      <Footer />
    </>
  );
}
