import { ContactSection } from "./ContactSection";
import { Faq } from "./Faq";
import { InPageLinks } from "./InPageLinks";
import { PageLayout } from "./PageLayout";
import { StaticSection } from "./StaticIsland";
import { Testimonials } from "./Testimonials";

/** The sections in the order the spec fixes (the unshown ones in between). */
export function HomePage() {
  return (
    <PageLayout>
      <InPageLinks />
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
    </PageLayout>
  );
}
