// Shared by the browser tests of the SCORM packages (ship.test.mjs, lms.test.mjs,
// lms-report.test.mjs): unpacking a built zip and reading its imsmanifest.xml in the browser.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distDir } from './harness.mjs';

/** Unpacks the zip at `zipPath` (with Debian's unzip) into a new temporary folder; returns the folder. */
export function unzip(zipPath) {
  const folder = mkdtempSync(join(tmpdir(), 'trainscope-package-'));
  execFileSync('unzip', ['-q', zipPath, '-d', folder]);
  return folder;
}

/**
 * The built package dist/`zipName` unpacked: `files`, the names at its root (sorted), and `report`,
 * what its imsmanifest.xml says, parsed by `page`'s DOMParser. `cp` and `adlcp` are the standard's
 * namespaces, `scormType` the adlcp attribute's spelling (scormtype in 1.2, scormType in 2004). In
 * the report, `files` are the resource's file elements and `named` every href and the file half of
 * each xsi:schemaLocation pair (namespace, file).
 */
export async function packageManifest(page, zipName, { cp, adlcp, scormType }) {
  const folder = unzip(join(distDir, zipName));
  const report = await page.evaluate(([xml, cpNamespace, adlcpNamespace, scormTypeName]) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const one = (parent, name) => parent.getElementsByTagNameNS(cpNamespace, name)[0] ?? null;
    const manifest = doc.documentElement;
    const organizations = one(manifest, 'organizations');
    const organization = one(organizations, 'organization');
    const item = one(organization, 'item');
    const resource = one(one(manifest, 'resources'), 'resource');
    const named = [];
    for (const element of doc.getElementsByTagName('*')) {
      for (const attribute of element.attributes) {
        if (attribute.localName === 'href') named.push(attribute.value);
        if (attribute.localName === 'schemaLocation') named.push(...attribute.value.trim().split(/\s+/).filter((_, index) => index % 2 === 1));
      }
    }
    return {
      parseError: doc.getElementsByTagName('parsererror').length > 0,
      root: `${manifest.namespaceURI} ${manifest.localName}`,
      identifier: manifest.getAttribute('identifier'),
      schema: one(one(manifest, 'metadata'), 'schema')?.textContent,
      schemaVersion: one(one(manifest, 'metadata'), 'schemaversion')?.textContent,
      defaultOrganization: organizations.getAttribute('default') === organization.getAttribute('identifier'),
      title: one(organization, 'title')?.textContent,
      itemPointsToResource: item.getAttribute('identifierref') === resource.getAttribute('identifier'),
      scormType: resource.getAttributeNS(adlcpNamespace, scormTypeName),
      type: resource.getAttribute('type'),
      href: resource.getAttribute('href'),
      files: [...resource.getElementsByTagNameNS(cpNamespace, 'file')].map((file) => file.getAttribute('href')),
      named,
    };
  }, [readFileSync(join(folder, 'imsmanifest.xml'), 'utf8'), cp, adlcp, scormType]);
  return { files: readdirSync(folder).sort(), report };
}
