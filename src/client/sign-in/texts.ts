import type { AppMessages } from '../../shared/i18n/app-en';

type Settings = AppMessages['qe']['signIn']['settings'];

/** The texts of the settings section (qe.signIn.settings.*) that are texts, not groups: what `translate(\`qe.signIn.settings.${key}\`)` may name. */
export type SettingsText = { [K in keyof Settings]: Settings[K] extends string ? K : never }[keyof Settings];
