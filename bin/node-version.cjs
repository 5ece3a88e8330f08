/*
 * The first thing `npm start`, `npm test`, `npm run admin` and `npm run build-graphs` run: it
 * says which Node.js the project needs (package.json `engines.node`) before any of the code
 * that needs it is loaded. Older Nodes fail later with errors that do not say why
 * (Node 18: `ReferenceError: crypto is not defined`). Written in ES5, as a CommonJS script, so
 * that any Node old enough to need the message can parse it (eslint.config.js holds it to ES5).
 */
var path = require('path');
var fs = require('fs');

var ENGINE = /^>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/;

function parts(version) {
  var match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

/**
 * Null when `version` (as `process.version` gives it, e.g. "v20.19.0") satisfies `range` (the
 * engines field's form, ">=20.19"), else the message that says what is needed.
 */
function unsupportedNodeMessage(version, range) {
  var wanted = ENGINE.exec(range);
  if (!wanted) throw new Error('package.json engines.node must read ">=<major>[.<minor>[.<patch>]]", not "' + range + '"');
  var minimum = [Number(wanted[1]), Number(wanted[2] || 0), Number(wanted[3] || 0)];
  var actual = parts(version);
  if (actual) {
    for (var index = 0; index < 3; index++) {
      if (actual[index] > minimum[index]) return null;
      if (actual[index] < minimum[index]) break;
      if (index === 2) return null;
    }
  }
  return (
    'Spoke needs Node.js ' + minimum.join('.') + ' or later (package.json "engines": {"node": "' + range + '"}); ' +
    'this is Node.js ' + version + '.\n' +
    'Install Node.js ' + minimum[0] + ' (' + minimum.join('.') + ' or later) or a newer major version, then run the command again.'
  );
}

function requiredRange() {
  var manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  return manifest.engines.node;
}

module.exports = { unsupportedNodeMessage: unsupportedNodeMessage, requiredRange: requiredRange };

if (require.main === module) {
  var message = unsupportedNodeMessage(process.version, requiredRange());
  if (message) {
    console.error(message);
    process.exit(1);
  }
}
