import { describe, expect, it } from 'vitest';
import {
  firstParagraph,
  isGithubRepoName,
  parseCherryPickTitle,
  parseGithubRemote,
  parseKubernetesCommit,
  parseMergeSubject,
  parseSquashSubject,
} from '../../src/git/pr-reference.js';

describe('parseMergeSubject', () => {
  it("reads the PR number and head branch from GitHub's merge-button subject", () => {
    expect(parseMergeSubject('Merge pull request #134639 from AkihiroSuda/rootless-beta')).toEqual({
      number: 134639,
      from: 'AkihiroSuda/rootless-beta',
    });
  });

  it('ignores merges that name no pull request', () => {
    expect(parseMergeSubject("Merge branch 'master' into keymutex")).toBeNull();
    expect(parseMergeSubject('Revert "Merge pull request #1 from a/b"')).toBeNull();
  });
});

describe('parseSquashSubject', () => {
  it('reads the number and the title from a subject ending in (#N)', () => {
    expect(parseSquashSubject('🐛 fake client support scale subresource (#3546)')).toEqual({
      number: 3546,
      title: '🐛 fake client support scale subresource',
    });
  });

  it('does not take a PR number from the middle of a subject', () => {
    expect(parseSquashSubject('Fix #12 in the informer')).toBeNull();
  });
});

describe('parseCherryPickTitle', () => {
  it.each([
    [
      'Automated cherry pick of #115620: client-go/cache: fix missing delete event (+ #116623)',
      [115620],
    ],
    ['Automated cherry pick of #135580 - Embed proper interface in TransformingStore', [135580]],
    ['Automated cherry pick of #1 #2: two fixes', [1, 2]],
    ['[1.24] Cherry Pick of #114766: [Prepare for go1.20] Bump versions', [114766]],
    ['Manual cherry pick of #103318: Bump SMD to v4.1.2 to pick up #102749 fix', [103318]],
  ])('names the original PRs of %j', (title, numbers) => {
    expect(parseCherryPickTitle(title)).toEqual(numbers);
  });

  it('finds nothing in an ordinary title', () => {
    expect(parseCherryPickTitle('Fix the cherry pick script (#12)')).toEqual([]);
  });
});

describe('parseKubernetesCommit', () => {
  it('reads the upstream commit from the publishing bot trailer', () => {
    const sha = '2a5a1c06c4bb33424a8253d876a094cc01957b07';
    expect(parseKubernetesCommit(`KEP-2033: promote to beta\n\nKubernetes-commit: ${sha}`)).toBe(
      sha,
    );
  });

  it('is null without the trailer', () => {
    expect(parseKubernetesCommit('Signed-off-by: Ada <ada@example.com>')).toBeNull();
  });
});

describe('firstParagraph', () => {
  it('joins the first paragraph of a merge body into the PR title', () => {
    expect(firstParagraph('Add the\nwatch cache\n\nKubernetes-commit: abc')).toBe(
      'Add the watch cache',
    );
  });

  it('is null when the body holds only trailers', () => {
    expect(
      firstParagraph('Kubernetes-commit: 2a5a1c06c4bb33424a8253d876a094cc01957b07'),
    ).toBeNull();
    expect(firstParagraph('')).toBeNull();
  });
});

describe('parseGithubRemote', () => {
  it.each([
    'https://github.com/kubernetes/client-go',
    'https://github.com/kubernetes/client-go.git',
    'https://github.com/kubernetes/client-go/',
    'https://ada@github.com/kubernetes/client-go.git',
    'http://www.github.com/kubernetes/client-go',
    'git@github.com:kubernetes/client-go.git',
    'github.com:kubernetes/client-go',
    'ssh://git@github.com/kubernetes/client-go.git',
    'ssh://git@ssh.github.com:443/kubernetes/client-go.git',
    'git://github.com/kubernetes/client-go.git',
  ])('reads owner/repo from %s', (url) => {
    expect(parseGithubRemote(url)).toBe('kubernetes/client-go');
  });

  it.each([
    '/work/.mirror/kubernetes+client-go/repo',
    'https://gitlab.com/kubernetes/client-go.git',
    'git@example.com:a/b.git',
  ])('is null for %s, which is not on GitHub', (url) => {
    expect(parseGithubRemote(url)).toBeNull();
  });
});

describe('isGithubRepoName', () => {
  it('accepts owner/repo and rejects anything else', () => {
    expect(isGithubRepoName('kubernetes-sigs/controller-runtime')).toBe(true);
    expect(isGithubRepoName('https://github.com/a/b')).toBe(false);
    expect(isGithubRepoName('justone')).toBe(false);
  });
});
