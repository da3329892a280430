// The InnoDB model's measured get counts in one place, each with its provenance and the server it was
// measured on; a prediction for another server says the counts come from that one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibrationNote, INNODB_CALIBRATION_ENTRIES } from '../../../src/predict/innodb/calibration';

test('every InnoDB calibration entry names what it decides, its provenance and the server it was measured on', () => {
  for (const [name, e] of Object.entries(INNODB_CALIBRATION_ENTRIES)) {
    // A get count is a whole number measured; a share (a tolerance between mechanisms) is set by hand.
    const count = Number.isInteger(e.value) && e.value > 0;
    const share = e.value > 0 && e.value < 1 && /set by hand/.test(e.provenance);
    assert.ok(count || share, name);
    assert.ok(e.what.length > 20, name);
    assert.match(e.provenance, /measured/, name);
    assert.match(e.versions, /MariaDB 10\.11/, name);
  }
});

test('a server other than the one measured on gets a note; MariaDB 10.11 none', () => {
  assert.equal(calibrationNote('mariadb', '10.11.19'), undefined);
  assert.match(calibrationNote('mysql', '8.4.3') ?? '', /measured on MariaDB 10\.11 and are applied to MySQL 8\.4\.3/);
  assert.match(calibrationNote('mariadb', '11.4.2') ?? '', /applied to MariaDB 11\.4\.2/);
});
