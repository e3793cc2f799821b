/** An identity provider's SAML metadata, as SsoSettings takes it (docs/service.md R20.1): the tests' one document. */
export const IDP_METADATA = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso?app=1&amp;x=2"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;
