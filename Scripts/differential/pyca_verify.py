"""pyca/cryptography's web-PKI server verifier on a case directory (anchors.pem, chain.pem), as the tester runs it:
    pyca_verify.py DIR HOST ISO8601-TIME      (exit 0: OK, 1: rejected)"""

import datetime as dt
import ipaddress
import sys

from cryptography import x509
from cryptography.x509 import DNSName, IPAddress
from cryptography.x509.verification import PolicyBuilder, Store


def main(directory, host, at):
    try:
        anchors = x509.load_pem_x509_certificates(open(directory + "/anchors.pem", "rb").read())
        chain = x509.load_pem_x509_certificates(open(directory + "/chain.pem", "rb").read())
        try:
            subject = IPAddress(ipaddress.ip_address(host))
        except ValueError:
            subject = DNSName(host)
        when = dt.datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ")
        verifier = PolicyBuilder().store(Store(anchors)).time(when).build_server_verifier(subject)
        verifier.verify(chain[0], chain[1:])
    except Exception as e:
        print("pyca: %s: %s" % (type(e).__name__, e))
        return 1
    print("pyca: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
