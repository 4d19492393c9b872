import { msg } from '@lingui/core/macro';
import { JOB_TEXTS, PUBLIC_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * The jobs' check texts, and the public pages' words: the server renders those pages itself and
 * reads their translations from this catalogue (server/src/public/public-pages.ts), which
 * `lingui extract` keeps because they are listed here.
 */
addServerTexts([
  [JOB_TEXTS.title, msg`Enter the job title`],
  [JOB_TEXTS.location, msg`Please provide an address`],
  [JOB_TEXTS.link, msg`Please provide a valid link`],
  [
    JOB_TEXTS.slug,
    msg`An address is lower-case letters, digits and hyphens, like service-technician.`,
  ],
  [JOB_TEXTS.slugTaken, msg`Another job has this address already.`],
  [JOB_TEXTS.topAccount, msg`Jobs are published by the top account, the machine builder’s.`],
  [PUBLIC_TEXTS.home, msg`Home`],
  [PUBLIC_TEXTS.about, msg`About us`],
  [PUBLIC_TEXTS.jobs, msg`Jobs`],
  [PUBLIC_TEXTS.signIn, msg`Sign in`],
  [PUBLIC_TEXTS.language, msg`Language`],
  [PUBLIC_TEXTS.landingTitle, msg`{0}: machines, plants and their data`],
  [
    PUBLIC_TEXTS.landingLead,
    msg`Machines and plants with their gateways, data streams, alarms, dashboards and service, in the workshop and at the desk, with or without a network.`,
  ],
  [PUBLIC_TEXTS.landingJobs, msg`Work with us: see our open positions.`],
  [PUBLIC_TEXTS.aboutTitle, msg`About {0}`],
  [
    PUBLIC_TEXTS.aboutText,
    msg`{0} builds machines and plants and looks after them for their whole life. Its customers see their machines, alarms, reports and service requests on this platform.`,
  ],
  [PUBLIC_TEXTS.jobsTitle, msg`Jobs at {0}`],
  [PUBLIC_TEXTS.jobsLead, msg`Our open positions.`],
  [PUBLIC_TEXTS.noJobs, msg`There are no open positions at the moment.`],
  [PUBLIC_TEXTS.location, msg`Location`],
  [PUBLIC_TEXTS.scope, msg`Scope`],
  [PUBLIC_TEXTS.hours, msg`Working hours`],
  [PUBLIC_TEXTS.contract, msg`Contract`],
  [PUBLIC_TEXTS.fullTime, msg`Full time`],
  [PUBLIC_TEXTS.partTime, msg`Part time`],
  [PUBLIC_TEXTS.permanent, msg`Permanent`],
  [PUBLIC_TEXTS.fixedTerm, msg`Fixed term`],
  [PUBLIC_TEXTS.apply, msg`Apply`],
  [PUBLIC_TEXTS.allJobs, msg`All jobs`],
  [PUBLIC_TEXTS.notFound, msg`This page does not exist.`],
]);
