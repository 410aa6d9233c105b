import { operations } from '@gw/types';
import type {
  AlternativeAuthoriseRequest,
  CancelSubscriptionRequest,
  CaptureRequest,
  CardAuthoriseRequest,
  CheckoutRequest,
  OperationName,
  PayoutRequest,
  RefundRequest,
  ReviewRequest,
} from '@gw/types';

/** A record shaped like the spec's, with the operation it is sent to. */
export interface ConformanceFixture {
  readonly name: string;
  readonly operation: OperationName;
  readonly record: object;
}

// Field names come from the generated types (`satisfies` makes a renamed or removed field a type error);
// values follow spec/v1/examples. The card number is the public test number 4111 1111 1111 1111.

const captureRequest = {
  merchant_id: 'M100200',
  account_id: 'A300400',
  capture_orders: [
    { transaction_id: 'T20261120101530001', order_no: 'ORD-20261120-0001', currency: 'USD', amount: '129.90' },
    { transaction_id: 'T20261119174512147', order_no: 'ORD-20261119-0147', currency: 'USD', amount: '45.00' },
    { transaction_id: 'T20261119183004152', order_no: 'ORD-20261119-0152', currency: 'EUR', amount: '312.75' },
  ],
} satisfies CaptureRequest;

const cardAuthoriseRequest = {
  merchant_id: 'M100200',
  account_id: 'A300400',
  order_no: 'ORD-20261120-0001',
  currency: 'USD',
  amount: '129.90',
  item_total: '119.90',
  shipping: '10.00',
  handling: '0.00',
  tax_total: '8.00',
  insurance: '0.00',
  shipping_discount: '0.00',
  discount: '8.00',
  'the service': 'Acme Gadgets',
  items: 'Mechanical Keyboard K7#,#SKU-KB-K7#,#1#,#89.90#;#Desk Mat XL#,#SKU-DM-XL#,#2#,#15.00',
  note: 'Leave the parcel with the concierge',
  shopper_id: 'SHP-558201',
  shopper_email: 'emily.carter@example.com',
  shopper_ip: '198.51.100.23',
  shopper_phone: '+1-415-555-0142',
  shopper_level: 'GOLD',
  open3d: 'do3DS',
  token_flag: 'NO',
  token_id: '',
  card: '4111111111111111',
  expiration_month: '12',
  expiration_year: '2029',
  security_code: '123',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  first_name: 'Emily',
  last_name: 'Carter',
  notify_url: 'https://shop.example.com/payments/notify?source=gw&retry=0',
  document: '',
  birth_date: '14-07-1988',
  billing_country: 'US',
  billing_state: 'CA',
  billing_city: 'San Francisco',
  billing_address: '500 Market Street, Apt 12B',
  billing_postal_code: '94105',
  delivery_firstname: 'Emily',
  delivery_lastname: 'Carter',
  delivery_country: 'US',
  delivery_state: 'CA',
  delivery_city: 'San Francisco',
  delivery_address: '500 Market Street, Apt 12B',
  delivery_postal_code: '94105',
  os: 'Windows 11',
  browser: 'Chrome 130.0',
  browser_lang: 'en-US',
  time_zone: 'America/Los_Angeles',
  resolution: '1920x1080',
  user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  color_depth: '24',
  cookie_new: 'ck_new_7f3a9c21',
  cookie_old: 'ck_old_51be02d4',
  session_id: 'sess_9b2f6e4c1d7a',
  device_fingerprint: 'fp_3c9a7e1f5b2d4a68',
  challenge_window_size: '05',
  custom: 'campaign=black-friday-2026&ref=newsletter',
  installments: '',
  installments_id: '',
  platform_source: 'Shopify',
  device_type: 'PC',
  order_type: 'WEB',
  checkout_time: 1795140930,
  fraudvendor_token_cookie: 'fv_tk_8d41c0e2a9',
  price_id: 'PRICE-KB-K7-2026',
  quote_id: 'QT-20261120-0091',
  quote_price: '129.90',
  storefront_domains: 'shop.example.com,www.example.com',
  cart_items: [
    {
      basic_item_data: {
        name: 'Mechanical Keyboard K7',
        quantity: '1',
        type: 'physical',
        category: 'Computer Accessories',
        productId: 'SKU-KB-K7',
        price: { amount_usd: 89.9, amount_local_currency: 89.9, currency: 'USD' },
      },
    },
    {
      basic_item_data: {
        name: 'Desk Mat XL',
        quantity: '2',
        type: 'physical',
        category: 'Computer Accessories',
        productId: 'SKU-DM-XL',
        price: { amount_usd: 15, amount_local_currency: 15, currency: 'USD' },
      },
    },
  ],
  account_owner: [
    {
      first_name: 'Emily',
      last_name: 'Carter',
      email: 'emily.carter@example.com',
      account_id: 'CUST-0042817',
      created: 1718003200,
      past_orders_count: 7,
      past_orders_sum: 642.3,
      lastLogin_ip: '198.51.100.23',
      registration_ip: '198.51.100.7',
    },
  ],
  total_discount: [{ coupon_code_used: 'BF2026', discount_type: 'ORDER_FIXED' }],
  additional_information: [
    {
      mpi_info: {
        eci: '05',
        cavv: 'AAABBJg0VhI0VniQEjRWAAAAAAA=',
        xid: 'MDAwMDAwMDAwMDAwMDAwMDAwMDE=',
        dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
      },
    },
  ],
  subscription: {
    contract: 'CT-PSP-30D',
    contract_name: 'Premium Support Plan',
    contract_amount: '9.90',
    interval: 'day',
    interval_count: '30',
    billing_cycle: 12,
    promotion_cycle: 1,
    contract_start: '2026-11-20',
    contract_end: '2027-11-20',
    price_id: 'PRICE-PSP-30D',
  },
} satisfies CardAuthoriseRequest;

const alternativeAuthoriseRequest = {
  merchant_id: 'M100200',
  account_id: 'A300400',
  order_no: 'ORD-20261120-0003',
  currency: 'BRL',
  amount: '250.00',
  item_total: '230.00',
  shipping: '20.00',
  'the service': 'Acme Gadgets',
  items: 'Noise Cancelling Headphones NC900#,#SKU-NC-900#,#1#,#230.00',
  shopper_email: 'ana.souza@example.com.br',
  first_name: 'Ana',
  last_name: 'Souza',
  document: '12345678909',
  billing_country: 'BR',
  billing_city: 'São Paulo',
  delivery_district_name: 'Pinheiros',
  delivery_street_name: 'Rua dos Pinheiros',
  notify_url: 'https://shop.example.com/payments/notify',
  payment_method: 'PIX',
  return_url: 'https://shop.example.com/checkout/return?order=ORD-20261120-0003',
  bank_code: '341',
  person: {
    document_number: '123.456.789-09',
    document_type: 'CPF',
    social_name: 'Ana Souza',
    email: 'ana.souza@example.com.br',
    phone_country_code: 'BR',
    phone_number: '987654321',
    address_city: 'São Paulo',
    address_country: 'BR',
    fiscal_country: 'BR',
    documents: {
      file_type: 'application/pdf',
      file_data: 'JVBERi0xLjcKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoK',
      file_url: 'https://files.shop.example.com/kyc/SHP-771045/cpf.pdf',
      labels: {
        person_bank_account_id: 'PBA-000412',
        bank_account: {
          account_type: 'CHECKING',
          account_number: '12345-6',
          branch_number: '0001',
          owner_document_number: '123.456.789-09',
          owner_name: 'Ana Souza',
          branch_country: 'BR',
          currency: 'BRL',
          bank: { code: '341', name: 'Itaú Unibanco S.A.' },
        },
      },
    },
  },
} satisfies AlternativeAuthoriseRequest;

const payoutRequest = {
  merchant_id: 'M100200',
  account_id: 'A300400',
  beneficiary: {
    first_name: 'Wei',
    last_name: 'Zhang',
    company_name: 'Pacific Components LLC',
    date_of_birth: '1984-06-12',
    entity_type: 'COMPANY',
    additional_info: {
      business_area: 'Electronic components wholesale',
      business_registration_number: '84-3921576',
      personal_id_number: '440305198406120017',
      personal_id_type: 'CHINESE_NATIONAL_ID',
      personal_phone_country_code: 'US',
      personal_fiscal_country: 'US',
    },
    address: {
      city: 'Los Angeles',
      country_code: 'US',
      postcode: '90017',
      state: 'CA',
      street_address: '1100 Wilshire Boulevard',
      complement: 'Suite 2100',
    },
    person_documents: [
      {
        file_type: 'application/pdf',
        file_url: 'https://files.shop.example.com/kyb/BEN-000731/certificate-of-formation.pdf',
        labels: ['business_registration', 'certificate_of_formation'],
      },
      {
        file_type: 'image/jpeg',
        file_url: 'https://files.shop.example.com/kyb/BEN-000731/director-id-front.jpg',
        labels: ['director_id', 'front'],
      },
    ],
    bank_details: {
      account_currency: 'USD',
      account_name: 'Pacific Components LLC',
      account_number: '000123456789',
      bank_account_category: 'CHECKING,BUSINESS',
      bank_country_code: 'US',
      bank_code: '026009593',
      bank_name: 'Bank of America, N.A.',
      iban: '',
      swift_code: 'BOFAUS3N',
      transaction_reference: 'INV-2026-1187',
    },
  },
  beneficiary_id: 'BEN-000731',
  client_data: 'supplier-settlement-2026-11',
  fee_paid_by: 'PAYER',
  payer: {
    first_name: 'Na',
    last_name: 'Li',
    company_name: 'Acme Gadgets Ltd',
    entity_type: 'COMPANY',
    additional_info: { business_registration_number: '91440300MA5G8K2X7Q', external_id: 'ACME-PAYER-01', job: 'Finance Director' },
    address: { city: 'Shenzhen', country_code: 'CN', postcode: '518048', street_address: '88 Fuhua 3rd Road, Futian District' },
  },
  payment_amount: '1500.00',
  payment_currency: 'USD',
  payment_date: '2026-11-20',
  payment_method: 'SWIFT',
  reason: 'Payment for electronic components, invoice INV-2026-1187',
  reference: 'INV-2026-1187',
  request_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  source_amount: '1500.00',
  source_currency: 'USD',
  swift_charge_option: 'SHARED',
  fund_source: 'DepositAccount',
  notify_url: 'https://shop.example.com/payouts/notify',
} satisfies PayoutRequest;

// Composed (NFC) and decomposed (NFD) forms, astral characters, joiners and right-to-left text.
const unicodeCheckoutRequest = {
  merchant_id: 'M100200',
  account_id: 'A300400',
  order_no: 'ORD-ユニコード-0007',
  currency: 'JPY',
  amount: '4500.00',
  'the service': '東京ガジェット',
  items: 'Café ☕ set#,#SKU-☕-01#,#1#,#4500.00',
  note: '🎁 for the family 👩‍👩‍👧 — 𝄞 𝟘𝟙',
  first_name: 'José',
  last_name: 'Nguye\u0302\u0303n',
  shopper_email: 'zoë@exämple.jp',
  billing_address: 'شارع الملك فهد ١٢\u200f',
  billing_city: 'Zu\u0308rich',
  delivery_city: 'Zürich',
  delivery_address: '\u1112\u1161\u11ab\u1100\u116e\u11a8 (Hangul jamo)',
  custom: 'tone 👍🏽 flag 🇧🇷 keycap 1️⃣',
  cart_items: [
    {
      basic_item_data: {
        name: '𠜎𠜱 tea set',
        quantity: '1',
        productId: 'SKU-𠜎-02',
        price: { amount_usd: 30.5, amount_local_currency: 4500, currency: 'JPY' },
      },
    },
  ],
  return_url: 'https://shop.example.com/返回?q=✓',
} satisfies CheckoutRequest;

const emptyCaptureRequest = { merchant_id: '', account_id: '', capture_orders: [] } satisfies CaptureRequest;

const emptyValuesCardRequest = {
  merchant_id: 'M100200',
  account_id: 'A300400',
  order_no: 'ORD-20261120-0009',
  amount: '0.00',
  note: '',
  token_id: '',
  document: '',
  installments: '',
  installments_id: '',
  custom: '',
  cart_items: [],
  account_owner: [{}],
  total_discount: [{ coupon_code_used: '', discount_type: '' }],
  subscription: {},
} satisfies CardAuthoriseRequest;

const emptyCancelSubscriptionRequest = {} satisfies CancelSubscriptionRequest;

const currencies = ['USD', 'EUR', 'GBP', 'JPY', 'BRL'] as const;

function pick<T>(values: readonly T[], index: number): T {
  return values[index % values.length] as T;
}

const reviewRequest = {
  merchant_id: 'M100200',
  account_id: 'A300400',
  review_orders: Array.from({ length: operations.review.batch.limit }, (_, i) => ({
    transaction_id: `T2026111${i % 10}0${String(100000 + i * 7919).slice(-6)}`,
    order_no: `ORD-20261118-${String(i + 1).padStart(4, '0')}`,
    currency: pick(currencies, i),
    amount: `${10 + ((i * 37) % 990)}.${String((i * 13) % 100).padStart(2, '0')}`,
    review_flag: i % 3 === 0 ? '0' : '1',
  })),
} satisfies ReviewRequest;

const refundRequest = {
  merchant_id: 'M100200',
  account_id: 'A300400',
  refund_orders: Array.from({ length: operations.refund.batch.limit }, (_, i) => ({
    transaction_id: `T2026111${i % 10}1${String(200000 + i * 4243).slice(-6)}`,
    order_no: `ORD-20261119-${String(i + 1).padStart(4, '0')}`,
    currency: pick(currencies, i),
    amount: `${20 + ((i * 53) % 480)}.00`,
    refund_amount: `${5 + ((i * 29) % 15)}.${String((i * 11) % 100).padStart(2, '0')}`,
    refund_reason: i % 5 === 0 ? 'Artículo devuelto — größe falsch' : `Returned item ${i + 1}`,
  })),
} satisfies RefundRequest;

/** Rich records whose every field is tampered with one at a time. */
export const richFixtures: readonly ConformanceFixture[] = [
  { name: 'capture request (3 orders)', operation: 'capture', record: captureRequest },
  { name: 'card authorise request (cart_items, subscription)', operation: 'authoriseCard', record: cardAuthoriseRequest },
  { name: 'alternative authorise request (person.documents)', operation: 'authoriseAlternative', record: alternativeAuthoriseRequest },
  { name: 'payout request (beneficiary, payer)', operation: 'payout', record: payoutRequest },
];

/** Unicode in every form a shopper's data brings. */
export const unicodeFixture: ConformanceFixture = { name: 'checkout request (unicode)', operation: 'checkout', record: unicodeCheckoutRequest };

/** Records with empty strings, empty arrays and empty objects. */
export const emptyValuesFixtures: readonly ConformanceFixture[] = [
  { name: 'capture request (empty ids, no orders)', operation: 'capture', record: emptyCaptureRequest },
  { name: 'card authorise request (empty values)', operation: 'authoriseCard', record: emptyValuesCardRequest },
  { name: 'cancel subscription request (empty record)', operation: 'cancelSubscription', record: emptyCancelSubscriptionRequest },
];

/** Batches at the spec's limits: review takes 100 orders, refund 50. */
export const largeBatchFixtures: readonly ConformanceFixture[] = [
  { name: 'review request (100 orders)', operation: 'review', record: reviewRequest },
  { name: 'refund request (50 orders)', operation: 'refund', record: refundRequest },
];

/** Every fixture, for round-trip and concurrency checks. */
export const allFixtures: readonly ConformanceFixture[] = [...richFixtures, unicodeFixture, ...emptyValuesFixtures, ...largeBatchFixtures];
