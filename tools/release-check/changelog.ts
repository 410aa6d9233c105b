// The CHANGELOG lines `changeset version` writes (.changeset/config.json "changelog"): each changeset's summary as
// @changesets/changelog-git writes it, and for the @gw packages a release moves with it one line naming them
// (changesets' default repeats "Updated dependencies" once per changeset, which in one fixed group is every package).
import changelogGit from '@changesets/changelog-git';
import type { ChangelogFunctions } from '@changesets/types';

const changelog: ChangelogFunctions = {
  getReleaseLine: changelogGit.getReleaseLine,
  getDependencyReleaseLine: (_changesets, dependencies) =>
    dependencies.length === 0
      ? ''
      : `- Released with ${dependencies.map((d) => `${d.name}@${d.newVersion}`).join(', ')}: every @gw package is versioned together.`,
};

export default changelog;
