// Profiles from a pasted URL, and which field a failed connection points at: what Add Connection offers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { profileFromUrl, suggestedName, suspectFields } from '../../src/db/profile';

test('a pasted URL gives the profile settings keep and its password apart; socket and TLS come along', () => {
  const pg = profileFromUrl('x', 'postgres://ann:s%40cret@db.example:6543/shop?sslmode=require');
  assert.deepEqual(pg, {
    profile: { name: 'x', engine: 'postgresql', host: 'db.example', port: 6543, user: 'ann', database: 'shop', ssl: { mode: 'require' } },
    password: 's@cret',
  });
  assert.ok(!JSON.stringify(pg.profile).includes('cret'), 'no password in what settings keep');
  const socket = profileFromUrl('y', 'mysql://root@localhost/app?socket=/run/mysqld/mysqld.sock');
  assert.deepEqual(socket, { profile: { name: 'y', engine: 'mysql', host: 'localhost', user: 'root', database: 'app', socket: '/run/mysqld/mysqld.sock' } });
  // The environment's password is not the URL's: it is not stored.
  process.env.PGPASSWORD = 'from-env';
  try {
    assert.equal(profileFromUrl('z', 'postgres://ann@h/db').password, undefined);
  } finally {
    delete process.env.PGPASSWORD;
  }
  assert.throws(() => profileFromUrl('w', 'http://h/db'), /unsupported URL scheme/);
  assert.equal(suggestedName(pg.profile), 'ann@db.example/shop');
});

test('the field a failed connection points at comes first, then the others, each once', () => {
  assert.deepEqual(suspectFields('database "shopp" does not exist'), ['database', 'host', 'port', 'user', 'password']);
  assert.deepEqual(suspectFields("Unknown database 'shopp'"), ['database', 'host', 'port', 'user', 'password']);
  assert.deepEqual(suspectFields('password authentication failed for user "ann"').slice(0, 2), ['password', 'user']);
  assert.deepEqual(suspectFields("Access denied for user 'ann'@'localhost' (using password: YES)").slice(0, 2), ['password', 'user']);
  assert.deepEqual(suspectFields('connect ECONNREFUSED 127.0.0.1:5433').slice(0, 2), ['host', 'port']);
  assert.deepEqual(suspectFields('getaddrinfo ENOTFOUND dbb.example').slice(0, 2), ['host', 'port']);
  assert.deepEqual(suspectFields('something else').length, 5);
});
