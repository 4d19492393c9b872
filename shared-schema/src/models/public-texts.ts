/**
 * The public pages' words (issue 36 item 3): English message ids, translated by the themes'
 * catalogue (the client's jobs screens register them; the server reads the PO files).
 * {0}: the machine builder's name.
 */
export const PUBLIC_TEXTS = {
  home: 'Home',
  about: 'About us',
  jobs: 'Jobs',
  signIn: 'Sign in',
  language: 'Language',
  landingTitle: '{0}: machines, plants and their data',
  landingLead:
    'Machines and plants with their gateways, data streams, alarms, dashboards and service, in the workshop and at the desk, with or without a network.',
  landingJobs: 'Work with us: see our open positions.',
  aboutTitle: 'About {0}',
  aboutText:
    '{0} builds machines and plants and looks after them for their whole life. Its customers see their machines, alarms, reports and service requests on this platform.',
  jobsTitle: 'Jobs at {0}',
  jobsLead: 'Our open positions.',
  noJobs: 'There are no open positions at the moment.',
  location: 'Location',
  scope: 'Scope',
  hours: 'Working hours',
  contract: 'Contract',
  fullTime: 'Full time',
  partTime: 'Part time',
  permanent: 'Permanent',
  fixedTerm: 'Fixed term',
  apply: 'Apply',
  allJobs: 'All jobs',
  notFound: 'This page does not exist.',
} as const;
