/** The marketing claims (docs/requirements.md, section 7), each written once; sections quote them. */
export const claims = {
  lessManualWork: "Up to 80% less manual work",
  roi: "ROI in 3-6 months",
  startIn: "Start in 2 weeks",
  fasterResponse: "90% faster customer response",
  alwaysOn: "24/7",
  automationsDeployed: "80+ automations deployed",
  costReduction: "Up to 60% cost reduction",
  implementations: "500+ implementations",
  initialResponse: "Initial response 24-48h",
  proofOfConcept: "Proof of concept 1-2 weeks",
  fullImplementation: "Full implementation 30 days",
  courseHours: "50+ hours of courses",
  members: "2,000+ members",
} as const;
