// The key the tpmjs upstream hashes on: packageName@version from the JSON body of a call
// (POST /execute-tool), so one package's installs land on one instance and its store stays
// warm. Anything else (other paths, unparsable bodies) hashes on the empty key.
function packageKey(r) {
    if (r.method !== 'POST' || !r.requestText) {
        return '';
    }
    try {
        var body = JSON.parse(r.requestText);
        var name = typeof body.packageName === 'string' ? body.packageName : '';
        var version = typeof body.version === 'string' ? body.version : 'latest';
        return name ? name + '@' + version : '';
    } catch (e) {
        return '';
    }
}

export default { packageKey };
