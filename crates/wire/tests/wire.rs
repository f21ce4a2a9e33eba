//! Integration tests of the wire types (`wire`).
//!
//! Every JSON shape of `platform-interface.md` is read from the interface's own camelCase form,
//! checked field by field, and written back and compared with the exact JSON expected on the
//! wire. Then the details both sides rely on (envelope codes, absent and null keys, unknown
//! fields, unknown enum values), the error paths of `wire::parse::json`, and the problems
//! `wire::validate` reports, message for message.

// The full order tree is one `json!` literal, deeper than the default macro recursion limit.
#![recursion_limit = "256"]

use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Value, json};
use wire::{
    self, ActivityDto, ActivityResponse, Asset, AssetEntry, AssetExtend, AssignStatus,
    BatchOrderRequest, BatchOrderResult, BindRequest, ClaimDetail, ClaimRequest, ClaimedProduct,
    Code, CreatedEnterprise, Customer, CustomerQuery, CustomerType, DefaultFilter,
    EnterpriseRequest, ExtendEntry, FeatureEntry, LicenseType, LockRequest, LockResult, LockStatus,
    Member, MerchandiseEntry, OrderEntry, OrderEnvelope, OrderType, ProductEntry, ShellnumsRequest,
    SubActivityDto, SyncMode, TokenError, TokenResponse,
    parse::ParseError,
    validate::{self, Problem},
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Reads `text` the way the platform reads a body, failing the test with the parse error.
fn read<T: DeserializeOwned>(text: &str) -> T {
    match wire::parse::json(text.as_bytes()) {
        Ok(value) => value,
        Err(e) => panic!("{e}\nin: {text}"),
    }
}

/// The JSON a value puts on the wire.
fn write<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("wire types always serialize")
}

/// The error of a body that must not read as `T`.
fn parse_error<T: DeserializeOwned>(text: &str) -> ParseError {
    match wire::parse::json::<T>(text.as_bytes()) {
        Ok(_) => panic!("expected a parse error for: {text}"),
        Err(e) => e,
    }
}

/// The keys of a JSON object, for asserting which keys are present or absent.
fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn problems(found: Vec<Problem>) -> Vec<(String, String)> {
    found
        .into_iter()
        .map(|p| (p.path.to_string(), p.message()))
        .collect()
}

fn expect(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(p, m)| ((*p).to_owned(), (*m).to_owned()))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// 2.1, 2.2 and operations 1 to 4: customers and enterprise master accounts
// ---------------------------------------------------------------------------------------------

#[test]
fn customer_round_trip() {
    let c: Customer = read(
        r#"{
            "customerId": "1790000000000001",
            "channelCode": "CH_EAST",
            "channelCustomerId": "CC-0042",
            "enterpriseGlobalId": "EG-20240001",
            "enterpriseName": "杭州某某科技有限公司",
            "isDefault": true
        }"#,
    );
    assert_eq!(c.customer_id, "1790000000000001");
    assert_eq!(c.channel_code, "CH_EAST");
    assert_eq!(c.channel_customer_id, "CC-0042");
    assert_eq!(c.enterprise_global_id, "EG-20240001");
    assert_eq!(c.enterprise_name, "杭州某某科技有限公司");
    assert!(c.is_default);
    assert_eq!(
        write(&c),
        json!({
            "customerId": "1790000000000001",
            "channelCode": "CH_EAST",
            "channelCustomerId": "CC-0042",
            "enterpriseGlobalId": "EG-20240001",
            "enterpriseName": "杭州某某科技有限公司",
            "isDefault": true
        })
    );
}

#[test]
fn customer_missing_fields_default_and_are_written_out() {
    let c: Customer = read("{}");
    assert_eq!(c, Customer::default());
    assert_eq!(
        write(&c),
        json!({
            "customerId": "",
            "channelCode": "",
            "channelCustomerId": "",
            "enterpriseGlobalId": "",
            "enterpriseName": "",
            "isDefault": false
        })
    );
}

#[test]
fn member_round_trip() {
    let m: Member = read(r#"{"memberGlobalId": "MG-1", "memberIdentity": "13800138000"}"#);
    assert_eq!(m.member_global_id, "MG-1");
    assert_eq!(m.member_identity, "13800138000");
    assert_eq!(
        write(&m),
        json!({"memberGlobalId": "MG-1", "memberIdentity": "13800138000"})
    );
}

#[test]
fn bind_request_round_trip() {
    let r: BindRequest = read(
        r#"{
            "channelCode": "CH_EAST",
            "channelCustomerId": "CC-0042",
            "customerName": "杭州某某科技有限公司",
            "branchName": "杭州分公司",
            "enterpriseName": "某某集团",
            "passwordMobile": "13800138000"
        }"#,
    );
    assert_eq!(r.channel_code.as_deref(), Some("CH_EAST"));
    assert_eq!(r.channel_customer_id.as_deref(), Some("CC-0042"));
    assert_eq!(r.customer_name.as_deref(), Some("杭州某某科技有限公司"));
    assert_eq!(r.branch_name.as_deref(), Some("杭州分公司"));
    assert_eq!(r.enterprise_name.as_deref(), Some("某某集团"));
    assert_eq!(r.password_mobile.as_deref(), Some("13800138000"));
    assert_eq!(
        write(&r),
        json!({
            "channelCode": "CH_EAST",
            "channelCustomerId": "CC-0042",
            "customerName": "杭州某某科技有限公司",
            "branchName": "杭州分公司",
            "enterpriseName": "某某集团",
            "passwordMobile": "13800138000"
        })
    );
}

#[test]
fn bind_request_none_fields_are_absent() {
    let r: BindRequest = read(r#"{"channelCode": "CH_EAST"}"#);
    assert_eq!(r.channel_code.as_deref(), Some("CH_EAST"));
    assert_eq!(r.password_mobile, None);
    assert_eq!(write(&r), json!({"channelCode": "CH_EAST"}));
    assert_eq!(write(&BindRequest::default()), json!({}));
}

#[test]
fn enterprise_request_round_trip() {
    let r: EnterpriseRequest = read(
        r#"{
            "crmCustomerId": "CRM-0042",
            "customerName": "杭州某某科技有限公司",
            "branchName": "杭州分公司",
            "address": "杭州市西湖区文三路 1 号"
        }"#,
    );
    assert_eq!(r.crm_customer_id.as_deref(), Some("CRM-0042"));
    assert_eq!(r.customer_name.as_deref(), Some("杭州某某科技有限公司"));
    assert_eq!(r.branch_name.as_deref(), Some("杭州分公司"));
    assert_eq!(r.address.as_deref(), Some("杭州市西湖区文三路 1 号"));
    assert_eq!(
        write(&r),
        json!({
            "crmCustomerId": "CRM-0042",
            "customerName": "杭州某某科技有限公司",
            "branchName": "杭州分公司",
            "address": "杭州市西湖区文三路 1 号"
        })
    );

    let partial: EnterpriseRequest = read(r#"{"crmCustomerId": "CRM-0042", "address": null}"#);
    assert_eq!(partial.address, None);
    assert_eq!(write(&partial), json!({"crmCustomerId": "CRM-0042"}));
}

#[test]
fn created_enterprise_round_trip() {
    let e: CreatedEnterprise = read(
        r#"{
            "enterpriseGlobalId": "EG-20240001",
            "defaultType": true,
            "members": [
                {"memberGlobalId": "MG-1", "memberIdentity": "13800138000"},
                {"memberGlobalId": "MG-2", "memberIdentity": "admin@example.com"}
            ]
        }"#,
    );
    assert_eq!(e.enterprise_global_id, "EG-20240001");
    assert!(e.default_type);
    assert_eq!(e.members.len(), 2);
    assert_eq!(
        e.members[1],
        Member {
            member_global_id: "MG-2".into(),
            member_identity: "admin@example.com".into()
        }
    );
    assert_eq!(
        write(&e),
        json!({
            "enterpriseGlobalId": "EG-20240001",
            "defaultType": true,
            "members": [
                {"memberGlobalId": "MG-1", "memberIdentity": "13800138000"},
                {"memberGlobalId": "MG-2", "memberIdentity": "admin@example.com"}
            ]
        })
    );
}

#[test]
fn customer_query_round_trip() {
    let q: CustomerQuery = serde_json::from_value(json!({
        "channelCode": "CH_EAST",
        "channelCustomerId": "CC-0042",
        "defaultCustomer": "Y"
    }))
    .unwrap();
    assert_eq!(q.channel_code.as_deref(), Some("CH_EAST"));
    assert_eq!(q.channel_customer_id.as_deref(), Some("CC-0042"));
    assert_eq!(q.default_customer, Some(DefaultFilter::Y));
    assert_eq!(
        write(&q),
        json!({"channelCode": "CH_EAST", "channelCustomerId": "CC-0042", "defaultCustomer": "Y"})
    );

    let all: CustomerQuery = serde_json::from_value(json!({"defaultCustomer": "N"})).unwrap();
    assert_eq!(all.default_customer, Some(DefaultFilter::N));
    assert_eq!(all.channel_code, None);
    assert_eq!(write(&all), json!({"defaultCustomer": "N"}));
    assert_eq!(write(&CustomerQuery::default()), json!({}));

    assert!(serde_json::from_value::<CustomerQuery>(json!({"defaultCustomer": "X"})).is_err());
    assert!(serde_json::from_value::<CustomerQuery>(json!({"defaultCustomer": "y"})).is_err());
}

// ---------------------------------------------------------------------------------------------
// The order group's envelope
// ---------------------------------------------------------------------------------------------

#[test]
fn success_envelope_has_integer_zero_and_success() {
    let env = OrderEnvelope::success(vec![BatchOrderResult {
        sequence: 1,
        license_order_id: "LO-1".into(),
        customer_id: "C-1".into(),
    }]);
    assert!(env.is_success());
    let v = write(&env);
    assert!(v["code"].is_i64(), "code must be an integer: {v}");
    assert_eq!(v["code"], json!(0));
    assert_eq!(v["message"], json!("success"));
    assert_eq!(
        v,
        json!({
            "code": 0,
            "message": "success",
            "data": [{"sequence": 1, "licenseOrderId": "LO-1", "customerId": "C-1"}]
        })
    );
}

#[test]
fn success_envelope_read_from_the_wire() {
    let env: OrderEnvelope<Vec<Customer>> = read(
        r#"{
            "code": 0,
            "message": "success",
            "data": [{
                "customerId": "1790000000000001",
                "channelCode": "CH_EAST",
                "channelCustomerId": "CC-0042",
                "enterpriseGlobalId": "EG-20240001",
                "enterpriseName": "某某集团",
                "isDefault": false
            }]
        }"#,
    );
    assert_eq!(env.code, Code::Number(0));
    assert!(env.is_success());
    assert_eq!(env.message, "success");
    assert_eq!(env.cause, None);
    let data = env.data.as_ref().expect("data");
    assert_eq!(data.len(), 1);
    assert_eq!(data[0].enterprise_name, "某某集团");
    assert!(!data[0].is_default);
    assert_eq!(
        write(&env),
        json!({
            "code": 0,
            "message": "success",
            "data": [{
                "customerId": "1790000000000001",
                "channelCode": "CH_EAST",
                "channelCustomerId": "CC-0042",
                "enterpriseGlobalId": "EG-20240001",
                "enterpriseName": "某某集团",
                "isDefault": false
            }]
        })
    );
}

#[test]
fn failure_envelope_has_string_code_and_cause() {
    let env = OrderEnvelope::<Vec<BatchOrderResult>>::failure(
        wire::envelope::VALIDATION,
        "参数校验失败",
        "orderList[0].sequence: required",
    );
    assert!(!env.is_success());
    let v = write(&env);
    assert!(v["code"].is_string(), "code must be a string: {v}");
    assert_eq!(
        v,
        json!({
            "code": "13004",
            "message": "参数校验失败",
            "cause": "orderList[0].sequence: required"
        })
    );
    assert_eq!(keys(&v), ["cause", "code", "message"]);
}

#[test]
fn failure_envelope_read_from_the_wire() {
    let env: OrderEnvelope<Vec<BatchOrderResult>> = read(
        r#"{"code": "500", "message": "系统异常", "cause": "database is locked", "data": null}"#,
    );
    assert_eq!(env.code, Code::Text("500".into()));
    assert_eq!(env.code, Code::Text(wire::envelope::SYSTEM.into()));
    assert!(!env.is_success());
    assert_eq!(env.message, "系统异常");
    assert_eq!(env.cause.as_deref(), Some("database is locked"));
    assert_eq!(env.data, None);
    assert_eq!(
        write(&env),
        json!({"code": "500", "message": "系统异常", "cause": "database is locked"})
    );

    // A string "0" is a failure code, not the integer success code.
    let odd: OrderEnvelope<()> = read(r#"{"code": "0", "message": "success"}"#);
    assert_eq!(odd.code, Code::Text("0".into()));
    assert!(!odd.is_success());
}

#[test]
fn done_envelope_has_no_data_key() {
    let v = write(&OrderEnvelope::<()>::done());
    assert_eq!(v, json!({"code": 0, "message": "success"}));
    assert_eq!(keys(&v), ["code", "message"]);

    let env: OrderEnvelope<()> = read(r#"{"code": 0, "message": "success"}"#);
    assert!(env.is_success());
    assert_eq!(env.data, None);
    assert_eq!(env, OrderEnvelope::<()>::done());
}

#[test]
fn envelope_codes_are_the_documented_ones() {
    assert_eq!(wire::envelope::VALIDATION, "13004");
    assert_eq!(wire::envelope::SYSTEM, "500");
    assert_eq!(wire::envelope::BUSINESS_EXCEPTION_STATUS, 299);
}

#[test]
fn envelope_with_created_enterprise_data() {
    let env: OrderEnvelope<CreatedEnterprise> = read(
        r#"{"code": 0, "message": "success", "traceId": "t-1",
            "data": {"enterpriseGlobalId": "EG-1", "defaultType": false, "members": [], "x": 1}}"#,
    );
    let data = env.data.as_ref().unwrap();
    assert_eq!(data.enterprise_global_id, "EG-1");
    assert!(data.members.is_empty());
    assert_eq!(
        write(&env),
        json!({
            "code": 0,
            "message": "success",
            "data": {"enterpriseGlobalId": "EG-1", "defaultType": false, "members": []}
        })
    );
}

// ---------------------------------------------------------------------------------------------
// 2.5 and 2.6 and operation 5: batch license orders
// ---------------------------------------------------------------------------------------------

const FULL_BATCH: &str = r#"{
    "channelCode": "CH_EAST",
    "channelOrderId": "SO-2024-0001",
    "syncMode": "sync",
    "orderList": [
        {
            "sequence": 1,
            "customerId": "1790000000000001",
            "crmCustomerId": "CRM-0042",
            "customerName": "杭州某某科技有限公司",
            "channelCustomerId": "CC-0042",
            "adminName": "张三",
            "adminAccount": "zhangsan",
            "adminEmail": "zhangsan@example.com",
            "adminCellNumber": "13800138000",
            "passwordMobile": "13900139000",
            "address": "杭州市西湖区文三路 1 号",
            "customerType": "company",
            "branchCode": "HZ",
            "branchName": "杭州分公司",
            "enterpriseGlobalId": "EG-20240001",
            "srcLicenseOrderId": "LO-0000",
            "licenseType": "normal_recover_usbkey",
            "orderType": "new_buy",
            "assets": [
                {
                    "assetNos": ["8000000001", "8000000002"],
                    "assetExtendList": [{"extendCode": "gxxp", "extendValue": "1"}],
                    "limitStartDate": 1704067200000,
                    "limitEndDate": 1735689599000,
                    "borrowedUsbKey": false,
                    "transferedAssetNum": true,
                    "products": [
                        {
                            "crmProductId": "CRM-P-1",
                            "parentCrmProductId": "CRM-A-1",
                            "productUri": "gms-100",
                            "productName": "计价软件",
                            "gmsPid": "gms-100",
                            "appKey": "ak-100",
                            "productType": "software",
                            "limitStartDate": 1704067200000,
                            "limitEndDate": 1735689599000,
                            "limitConcurrent": 3,
                            "limitTimeDuration": 3600000,
                            "strictMatchWhenDelete": false,
                            "trial": 0,
                            "trialEndDate": 1706745600000,
                            "passwords": ["pw-1", "pw-2"],
                            "timeUnit": "year",
                            "timeUnitQuantity": 1,
                            "timeDurationExpression": "1-0-0",
                            "srcLicenseOrderId": "LO-0001",
                            "productFeatures": [
                                {
                                    "featureCode": "F-NODES",
                                    "featureName": "节点数",
                                    "featureValue": "10",
                                    "featureValueType": "int",
                                    "trial": 1,
                                    "trialEndDate": 1706745600000
                                }
                            ]
                        },
                        {"productUri": "ak-200", "limitConcurrent": 5}
                    ],
                    "merchandises": [
                        {
                            "crmProductId": "CRM-M-1",
                            "parentCrmProductId": "CRM-A-1",
                            "merchandiseNum": "M-100",
                            "merchandiseName": "造价套餐",
                            "parentMerchandiseNum": "M-000",
                            "timeDurationExpression": "1-0-0",
                            "children": [
                                {
                                    "crmProductId": "CRM-M-2",
                                    "parentCrmProductId": "CRM-M-1",
                                    "merchandiseNum": "M-110",
                                    "merchandiseName": "子套餐",
                                    "parentMerchandiseNum": "M-100",
                                    "timeDurationExpression": "0-6-0",
                                    "children": null,
                                    "licenseOrderProductList": [
                                        {"crmProductId": "CRM-P-3", "productUri": "gms-300"}
                                    ]
                                }
                            ],
                            "licenseOrderProductList": [{"productUri": "gms-200"}]
                        }
                    ]
                }
            ]
        }
    ]
}"#;

#[test]
fn batch_order_full_tree_round_trip() {
    let r: BatchOrderRequest = read(FULL_BATCH);
    assert_eq!(r.channel_code.as_deref(), Some("CH_EAST"));
    assert_eq!(r.channel_order_id.as_deref(), Some("SO-2024-0001"));
    assert_eq!(r.sync_mode, Some(SyncMode::Sync));
    assert_eq!(r.order_list.len(), 1);

    let o = &r.order_list[0];
    assert_eq!(o.sequence, Some(1));
    assert_eq!(o.customer_id.as_deref(), Some("1790000000000001"));
    assert_eq!(o.crm_customer_id.as_deref(), Some("CRM-0042"));
    assert_eq!(o.customer_name.as_deref(), Some("杭州某某科技有限公司"));
    assert_eq!(o.channel_customer_id.as_deref(), Some("CC-0042"));
    assert_eq!(o.admin_name.as_deref(), Some("张三"));
    assert_eq!(o.admin_account.as_deref(), Some("zhangsan"));
    assert_eq!(o.admin_email.as_deref(), Some("zhangsan@example.com"));
    assert_eq!(o.admin_cell_number.as_deref(), Some("13800138000"));
    assert_eq!(o.password_mobile.as_deref(), Some("13900139000"));
    assert_eq!(o.address.as_deref(), Some("杭州市西湖区文三路 1 号"));
    assert_eq!(o.customer_type, Some(CustomerType::Company));
    assert_eq!(o.branch_code.as_deref(), Some("HZ"));
    assert_eq!(o.branch_name.as_deref(), Some("杭州分公司"));
    assert_eq!(o.enterprise_global_id.as_deref(), Some("EG-20240001"));
    assert_eq!(o.src_license_order_id.as_deref(), Some("LO-0000"));
    assert_eq!(o.license_type, Some(LicenseType::NormalRecoverUsbkey));
    assert_eq!(o.order_type, Some(OrderType::NewBuy));

    let a = &o.assets[0];
    assert_eq!(a.asset_nos, ["8000000001", "8000000002"]);
    assert_eq!(
        a.asset_extend_list,
        [ExtendEntry {
            extend_code: Some("gxxp".into()),
            extend_value: Some("1".into()),
            ..ExtendEntry::default()
        }]
    );
    assert_eq!(a.limit_start_date, Some(1_704_067_200_000));
    assert_eq!(a.limit_end_date, Some(1_735_689_599_000));
    assert_eq!(a.borrowed_usb_key, Some(false));
    assert_eq!(a.transfered_asset_num, Some(true));
    assert_eq!(a.products.len(), 2);

    let p = &a.products[0];
    assert_eq!(p.crm_product_id.as_deref(), Some("CRM-P-1"));
    assert_eq!(p.parent_crm_product_id.as_deref(), Some("CRM-A-1"));
    assert_eq!(p.product_uri.as_deref(), Some("gms-100"));
    assert_eq!(p.product_name.as_deref(), Some("计价软件"));
    assert_eq!(p.gms_pid.as_deref(), Some("gms-100"));
    assert_eq!(p.app_key.as_deref(), Some("ak-100"));
    assert_eq!(p.product_type.as_deref(), Some("software"));
    assert_eq!(p.limit_start_date, Some(1_704_067_200_000));
    assert_eq!(p.limit_end_date, Some(1_735_689_599_000));
    assert_eq!(p.limit_concurrent, Some(3));
    assert_eq!(p.limit_time_duration, Some(3_600_000));
    assert_eq!(p.strict_match_when_delete, Some(false));
    assert_eq!(p.trial, Some(0));
    assert_eq!(p.trial_end_date, Some(1_706_745_600_000));
    assert_eq!(p.passwords, ["pw-1", "pw-2"]);
    assert_eq!(p.time_unit.as_deref(), Some("year"));
    assert_eq!(p.time_unit_quantity, Some(1));
    assert_eq!(p.time_duration_expression.as_deref(), Some("1-0-0"));
    assert_eq!(p.src_license_order_id.as_deref(), Some("LO-0001"));
    assert_eq!(
        p.product_features,
        [FeatureEntry {
            feature_code: Some("F-NODES".into()),
            feature_name: Some("节点数".into()),
            feature_value: Some("10".into()),
            feature_value_type: Some("int".into()),
            trial: Some(1),
            trial_end_date: Some(1_706_745_600_000),
            ..FeatureEntry::default()
        }]
    );
    assert_eq!(
        a.products[1],
        ProductEntry {
            product_uri: Some("ak-200".into()),
            limit_concurrent: Some(5),
            ..ProductEntry::default()
        }
    );

    let m = &a.merchandises[0];
    assert_eq!(m.crm_product_id.as_deref(), Some("CRM-M-1"));
    assert_eq!(m.parent_crm_product_id.as_deref(), Some("CRM-A-1"));
    assert_eq!(m.merchandise_num.as_deref(), Some("M-100"));
    assert_eq!(m.merchandise_name.as_deref(), Some("造价套餐"));
    assert_eq!(m.parent_merchandise_num.as_deref(), Some("M-000"));
    assert_eq!(m.time_duration_expression.as_deref(), Some("1-0-0"));
    assert_eq!(m.license_order_product_list.len(), 1);
    assert_eq!(
        m.license_order_product_list[0].product_uri.as_deref(),
        Some("gms-200")
    );
    let children = m.children.as_ref().expect("children");
    assert_eq!(children.len(), 1);
    let child = &children[0];
    assert_eq!(child.merchandise_num.as_deref(), Some("M-110"));
    assert_eq!(child.parent_merchandise_num.as_deref(), Some("M-100"));
    assert_eq!(child.children, None);
    assert_eq!(
        child.license_order_product_list,
        [ProductEntry {
            crm_product_id: Some("CRM-P-3".into()),
            product_uri: Some("gms-300".into()),
            ..ProductEntry::default()
        }]
    );

    assert_eq!(
        write(&r),
        json!({
            "channelCode": "CH_EAST",
            "channelOrderId": "SO-2024-0001",
            "syncMode": "sync",
            "orderList": [
                {
                    "sequence": 1,
                    "customerId": "1790000000000001",
                    "crmCustomerId": "CRM-0042",
                    "customerName": "杭州某某科技有限公司",
                    "channelCustomerId": "CC-0042",
                    "adminName": "张三",
                    "adminAccount": "zhangsan",
                    "adminEmail": "zhangsan@example.com",
                    "adminCellNumber": "13800138000",
                    "passwordMobile": "13900139000",
                    "address": "杭州市西湖区文三路 1 号",
                    "customerType": "company",
                    "branchCode": "HZ",
                    "branchName": "杭州分公司",
                    "enterpriseGlobalId": "EG-20240001",
                    "srcLicenseOrderId": "LO-0000",
                    "licenseType": "normal_recover_usbkey",
                    "orderType": "new_buy",
                    "assets": [
                        {
                            "assetNos": ["8000000001", "8000000002"],
                            "assetExtendList": [{"extendCode": "gxxp", "extendValue": "1"}],
                            "limitStartDate": 1_704_067_200_000_i64,
                            "limitEndDate": 1_735_689_599_000_i64,
                            "borrowedUsbKey": false,
                            "transferedAssetNum": true,
                            "products": [
                                {
                                    "crmProductId": "CRM-P-1",
                                    "parentCrmProductId": "CRM-A-1",
                                    "productUri": "gms-100",
                                    "productName": "计价软件",
                                    "gmsPid": "gms-100",
                                    "appKey": "ak-100",
                                    "productType": "software",
                                    "limitStartDate": 1_704_067_200_000_i64,
                                    "limitEndDate": 1_735_689_599_000_i64,
                                    "limitConcurrent": 3,
                                    "limitTimeDuration": 3_600_000,
                                    "strictMatchWhenDelete": false,
                                    "trial": 0,
                                    "trialEndDate": 1_706_745_600_000_i64,
                                    "passwords": ["pw-1", "pw-2"],
                                    "timeUnit": "year",
                                    "timeUnitQuantity": 1,
                                    "timeDurationExpression": "1-0-0",
                                    "srcLicenseOrderId": "LO-0001",
                                    "productFeatures": [
                                        {
                                            "featureCode": "F-NODES",
                                            "featureName": "节点数",
                                            "featureValue": "10",
                                            "featureValueType": "int",
                                            "trial": 1,
                                            "trialEndDate": 1_706_745_600_000_i64
                                        }
                                    ]
                                },
                                {"productUri": "ak-200", "limitConcurrent": 5}
                            ],
                            "merchandises": [
                                {
                                    "crmProductId": "CRM-M-1",
                                    "parentCrmProductId": "CRM-A-1",
                                    "merchandiseNum": "M-100",
                                    "merchandiseName": "造价套餐",
                                    "parentMerchandiseNum": "M-000",
                                    "timeDurationExpression": "1-0-0",
                                    "children": [
                                        {
                                            "crmProductId": "CRM-M-2",
                                            "parentCrmProductId": "CRM-M-1",
                                            "merchandiseNum": "M-110",
                                            "merchandiseName": "子套餐",
                                            "parentMerchandiseNum": "M-100",
                                            "timeDurationExpression": "0-6-0",
                                            "children": null,
                                            "licenseOrderProductList": [
                                                {"crmProductId": "CRM-P-3", "productUri": "gms-300"}
                                            ]
                                        }
                                    ],
                                    "licenseOrderProductList": [{"productUri": "gms-200"}]
                                }
                            ]
                        }
                    ]
                }
            ]
        })
    );

    // Writing and reading again gives the same value.
    let again: BatchOrderRequest = read(&serde_json::to_string(&r).unwrap());
    assert_eq!(again, r);
}

#[test]
fn merchandise_without_children_writes_children_null() {
    let m: MerchandiseEntry = read(r#"{"merchandiseNum": "M-1"}"#);
    assert_eq!(m.children, None);
    assert!(m.license_order_product_list.is_empty());
    let v = write(&m);
    assert_eq!(
        v,
        json!({"merchandiseNum": "M-1", "children": null, "licenseOrderProductList": []})
    );
    assert!(v.as_object().unwrap().contains_key("children"));
    assert!(v["children"].is_null());

    // An explicit empty list of children stays an empty list.
    let empty: MerchandiseEntry = read(r#"{"merchandiseNum": "M-1", "children": []}"#);
    assert_eq!(empty.children, Some(vec![]));
    assert_eq!(
        write(&empty),
        json!({"merchandiseNum": "M-1", "children": [], "licenseOrderProductList": []})
    );
}

#[test]
fn delete_asset_order_round_trip() {
    let r: BatchOrderRequest = read(
        r#"{
            "channelCode": "CH_EAST",
            "channelOrderId": "SO-2024-0002",
            "syncMode": "async",
            "orderList": [{
                "sequence": 1,
                "customerId": "1790000000000001",
                "srcLicenseOrderId": "LO-0001",
                "licenseType": "cloud_customer",
                "orderType": "delete_asset",
                "assets": [{"assetNos": ["8000000001"]}]
            }]
        }"#,
    );
    assert_eq!(r.sync_mode, Some(SyncMode::Async));
    let o = &r.order_list[0];
    assert_eq!(o.license_type, Some(LicenseType::CloudCustomer));
    assert_eq!(o.order_type, Some(OrderType::DeleteAsset));
    assert_eq!(
        o.assets,
        [AssetEntry {
            asset_nos: vec!["8000000001".into()],
            ..AssetEntry::default()
        }]
    );
    // `products` is always written (an empty list); the optional lists are left out.
    assert_eq!(
        write(&r),
        json!({
            "channelCode": "CH_EAST",
            "channelOrderId": "SO-2024-0002",
            "syncMode": "async",
            "orderList": [{
                "sequence": 1,
                "customerId": "1790000000000001",
                "srcLicenseOrderId": "LO-0001",
                "licenseType": "cloud_customer",
                "orderType": "delete_asset",
                "assets": [{"assetNos": ["8000000001"], "products": []}]
            }]
        })
    );
}

#[test]
fn delete_product_order_round_trip() {
    let r: BatchOrderRequest = read(
        r#"{
            "channelCode": "CH_EAST",
            "channelOrderId": "SO-2024-0003",
            "orderList": [{
                "sequence": 7,
                "channelCustomerId": "CC-0042",
                "srcLicenseOrderId": "LO-0001",
                "licenseType": "softkey",
                "orderType": "delete_product",
                "assets": [{
                    "assetNos": ["8000000001"],
                    "limitStartDate": 1704067200000,
                    "limitEndDate": 1735689599000,
                    "products": [{
                        "crmProductId": "CRM-P-1",
                        "productUri": "gms-100",
                        "limitStartDate": 1704067200000,
                        "limitEndDate": 1735689599000,
                        "limitConcurrent": 3,
                        "strictMatchWhenDelete": true
                    }]
                }]
            }]
        }"#,
    );
    assert_eq!(r.sync_mode, None);
    let o = &r.order_list[0];
    assert_eq!(o.sequence, Some(7));
    assert_eq!(o.customer_id, None);
    assert_eq!(o.order_type, Some(OrderType::DeleteProduct));
    let p = &o.assets[0].products[0];
    assert_eq!(p.strict_match_when_delete, Some(true));
    assert_eq!(p.limit_concurrent, Some(3));
    assert_eq!(
        write(&r),
        json!({
            "channelCode": "CH_EAST",
            "channelOrderId": "SO-2024-0003",
            "orderList": [{
                "sequence": 7,
                "channelCustomerId": "CC-0042",
                "srcLicenseOrderId": "LO-0001",
                "licenseType": "softkey",
                "orderType": "delete_product",
                "assets": [{
                    "assetNos": ["8000000001"],
                    "limitStartDate": 1_704_067_200_000_i64,
                    "limitEndDate": 1_735_689_599_000_i64,
                    "products": [{
                        "crmProductId": "CRM-P-1",
                        "productUri": "gms-100",
                        "limitStartDate": 1_704_067_200_000_i64,
                        "limitEndDate": 1_735_689_599_000_i64,
                        "limitConcurrent": 3,
                        "strictMatchWhenDelete": true
                    }]
                }]
            }]
        })
    );
}

#[test]
fn request_none_fields_are_absent() {
    assert_eq!(
        write(&BatchOrderRequest::default()),
        json!({"orderList": []})
    );
    assert_eq!(write(&OrderEntry::default()), json!({"assets": []}));
    assert_eq!(
        write(&AssetEntry::default()),
        json!({"assetNos": [], "products": []})
    );
    assert_eq!(write(&ProductEntry::default()), json!({}));
    assert_eq!(write(&FeatureEntry::default()), json!({}));
    assert_eq!(write(&ExtendEntry::default()), json!({}));
    assert_eq!(
        write(&MerchandiseEntry::default()),
        json!({"children": null, "licenseOrderProductList": []})
    );
    assert_eq!(write(&LockRequest::default()), json!({"assetNums": []}));
    assert_eq!(write(&ShellnumsRequest::default()), json!({}));
    assert_eq!(write(&ClaimRequest::default()), json!({}));
    assert_eq!(write(&EnterpriseRequest::default()), json!({}));
}

#[test]
fn batch_order_result_round_trip() {
    let results: Vec<BatchOrderResult> = read(
        r#"[
            {"sequence": 1, "licenseOrderId": "LO-20240001", "customerId": "1790000000000001"},
            {"sequence": 2, "licenseOrderId": "LO-20240002", "customerId": "1790000000000002"}
        ]"#,
    );
    assert_eq!(results.len(), 2);
    assert_eq!(results[0].sequence, 1);
    assert_eq!(results[0].license_order_id, "LO-20240001");
    assert_eq!(results[1].customer_id, "1790000000000002");
    assert_eq!(
        write(&results),
        json!([
            {"sequence": 1, "licenseOrderId": "LO-20240001", "customerId": "1790000000000001"},
            {"sequence": 2, "licenseOrderId": "LO-20240002", "customerId": "1790000000000002"}
        ])
    );
}

#[test]
fn license_types_are_the_interface_values() {
    let documented = [
        "normal_unrecover_usbkey",
        "normal_recover_usbkey",
        "normal_unrecover_lan_usbkey",
        "normal_recover_lan_usbkey",
        "identity_usbkey",
        "identity_lan_usbkey",
        "softkey",
        "lan_softkey",
        "product_entity",
        "cloud_account",
        "cloud_customer",
        "cloud_personal",
        "lk_product_usbkey",
        "lk_auth_usbkey",
    ];
    let names: Vec<&str> = LicenseType::ALL.iter().map(|t| t.as_str()).collect();
    assert_eq!(names, documented);
    for (&t, name) in LicenseType::ALL.iter().zip(documented) {
        assert_eq!(write(&t), json!(name));
        assert_eq!(
            serde_json::from_value::<LicenseType>(json!(name)).unwrap(),
            t
        );
        assert_eq!(LicenseType::parse(name), Some(t));
    }
    assert_eq!(LicenseType::parse("foo"), None);

    let cloud: Vec<&str> = LicenseType::ALL
        .iter()
        .copied()
        .filter(|t| t.is_cloud())
        .map(LicenseType::as_str)
        .collect();
    assert_eq!(cloud, ["cloud_account", "cloud_customer", "cloud_personal"]);
    let reissuable: Vec<&str> = LicenseType::ALL
        .iter()
        .copied()
        .filter(|t| t.is_reissuable_lock())
        .map(LicenseType::as_str)
        .collect();
    assert_eq!(
        reissuable,
        ["normal_recover_usbkey", "normal_recover_lan_usbkey"]
    );
}

#[test]
fn order_customer_and_sync_enums_are_the_interface_values() {
    let names: Vec<&str> = OrderType::ALL.iter().map(|t| t.as_str()).collect();
    assert_eq!(names, ["new_buy", "delete_asset", "delete_product"]);
    for t in OrderType::ALL {
        assert_eq!(write(&t), json!(t.as_str()));
    }
    assert_eq!(write(&CustomerType::Personal), json!("personal"));
    assert_eq!(write(&CustomerType::Company), json!("company"));
    assert_eq!(write(&SyncMode::Sync), json!("sync"));
    assert_eq!(write(&SyncMode::Async), json!("async"));
    assert_eq!(SyncMode::default(), SyncMode::Sync);
}

#[test]
fn unknown_enum_values_are_rejected() {
    let order = |field: &str, value: &str| {
        format!(r#"{{"orderList": [{{"sequence": 1, "{field}": "{value}"}}]}}"#)
    };

    let e = parse_error::<BatchOrderRequest>(&order("licenseType", "foo"));
    assert_eq!(e.path, "orderList[0].licenseType");
    assert!(
        e.message
            .starts_with("unknown variant `foo`, expected one of `normal_unrecover_usbkey`"),
        "{e}"
    );

    let e = parse_error::<BatchOrderRequest>(&order("orderType", "renew"));
    assert_eq!(e.path, "orderList[0].orderType");
    assert!(
        e.message.starts_with(
            "unknown variant `renew`, expected one of `new_buy`, `delete_asset`, `delete_product`"
        ),
        "{e}"
    );

    let e = parse_error::<BatchOrderRequest>(&order("customerType", "government"));
    assert_eq!(e.path, "orderList[0].customerType");
    assert!(
        e.message
            .starts_with("unknown variant `government`, expected `personal` or `company`"),
        "{e}"
    );

    // Case matters: the wire values are lower snake case.
    let e = parse_error::<BatchOrderRequest>(&order("licenseType", "SOFTKEY"));
    assert_eq!(e.path, "orderList[0].licenseType");

    let e = parse_error::<BatchOrderRequest>(r#"{"syncMode": "later"}"#);
    assert_eq!(e.path, "syncMode");
    assert!(
        e.message
            .starts_with("unknown variant `later`, expected `sync` or `async`"),
        "{e}"
    );

    assert!(serde_json::from_value::<LicenseType>(json!("foo")).is_err());
    assert!(serde_json::from_value::<LockStatus>(json!(0)).is_err());
    assert!(serde_json::from_value::<LockStatus>(json!(5)).is_err());
    assert!(serde_json::from_value::<LockStatus>(json!("1")).is_err());
}

#[test]
fn unknown_fields_are_ignored_at_every_level() {
    let r: BatchOrderRequest = read(
        r#"{
            "channelCode": "CH_EAST",
            "channelOrderId": "SO-1",
            "requestTime": 1704067200000,
            "orderList": [{
                "sequence": 1,
                "customerId": "C-1",
                "licenseType": "softkey",
                "orderType": "new_buy",
                "remark": {"nested": [1, 2, 3]},
                "assets": [{
                    "assetNos": ["8000000001"],
                    "assetExtendList": [{"extendCode": "gxxp", "extendValue": "1", "note": "x"}],
                    "assetKind": "soft",
                    "products": [{
                        "productUri": "gms-100",
                        "productVersion": "2024",
                        "productFeatures": [{"featureCode": "F1", "unit": "node"}]
                    }],
                    "merchandises": [{
                        "merchandiseNum": "M-1",
                        "price": 12.5,
                        "children": [{"merchandiseNum": "M-2", "children": null, "level": 2}]
                    }]
                }]
            }]
        }"#,
    );
    assert_eq!(
        write(&r),
        json!({
            "channelCode": "CH_EAST",
            "channelOrderId": "SO-1",
            "orderList": [{
                "sequence": 1,
                "customerId": "C-1",
                "licenseType": "softkey",
                "orderType": "new_buy",
                "assets": [{
                    "assetNos": ["8000000001"],
                    "assetExtendList": [{"extendCode": "gxxp", "extendValue": "1"}],
                    "products": [{
                        "productUri": "gms-100",
                        "productFeatures": [{"featureCode": "F1"}]
                    }],
                    "merchandises": [{
                        "merchandiseNum": "M-1",
                        "children": [{
                            "merchandiseNum": "M-2",
                            "children": null,
                            "licenseOrderProductList": []
                        }],
                        "licenseOrderProductList": []
                    }]
                }]
            }]
        })
    );

    // Responses too.
    let c: Customer = read(r#"{"customerId": "C-1", "createdBy": "crm", "tags": ["a"]}"#);
    assert_eq!(c.customer_id, "C-1");
    let a: Asset = read(r#"{"id": "A-1", "assignStatus": {"id": "A-1", "extra": true}, "z": 1}"#);
    assert_eq!(a.id, "A-1");
    assert_eq!(a.assign_status.id, "A-1");
    let t: TokenResponse = read(r#"{"access_token": "t", "refresh_token": "r"}"#);
    assert_eq!(t.access_token, "t");
}

#[test]
fn null_list_fields_read_as_empty() {
    let r: BatchOrderRequest = read(r#"{"orderList": null}"#);
    assert!(r.order_list.is_empty());
    assert_eq!(write(&r), json!({"orderList": []}));

    let r: BatchOrderRequest = read(
        r#"{"orderList": [
            {"assets": null},
            {"assets": [{
                "assetNos": null,
                "assetExtendList": null,
                "products": [{"productUri": "p", "passwords": null, "productFeatures": null}],
                "merchandises": null
            }]},
            {"assets": [{"merchandises": [{"licenseOrderProductList": null, "children": null}]}]}
        ]}"#,
    );
    assert!(r.order_list[0].assets.is_empty());
    let a = &r.order_list[1].assets[0];
    assert!(a.asset_nos.is_empty());
    assert!(a.asset_extend_list.is_empty());
    assert!(a.merchandises.is_empty());
    assert!(a.products[0].passwords.is_empty());
    assert!(a.products[0].product_features.is_empty());
    let m = &r.order_list[2].assets[0].merchandises[0];
    assert!(m.license_order_product_list.is_empty());
    assert_eq!(m.children, None);
    assert_eq!(
        write(&r),
        json!({"orderList": [
            {"assets": []},
            {"assets": [{"assetNos": [], "products": [{"productUri": "p"}]}]},
            {"assets": [{
                "assetNos": [],
                "products": [],
                "merchandises": [{"children": null, "licenseOrderProductList": []}]
            }]}
        ]})
    );

    let l: LockRequest = read(r#"{"assetNums": null, "operatorIdentity": "ops"}"#);
    assert!(l.asset_nums.is_empty());
}

// ---------------------------------------------------------------------------------------------
// 2.3, 2.4 and operations 6 to 9: assets, locks, asset numbers
// ---------------------------------------------------------------------------------------------

#[test]
fn asset_round_trip_as_shown() {
    let a: Asset = read(
        r#"{
            "id": "a1b2c3d4",
            "licenseType": "cloud_customer",
            "assetNum": "8000000001",
            "grantable": true,
            "customerId": "1790000000000001",
            "keyShellNumber": "8000000001",
            "keyChipType": 2,
            "locked": false,
            "freezing": false,
            "createTime": 1704067200000,
            "updateTime": 1704153600000,
            "limitStartTime": null,
            "limitEndTime": null,
            "assignStatus": {
                "id": "a1b2c3d4",
                "assignStatus": "assigned",
                "assignMemberId": "MG-1",
                "createTime": "2024-01-01 08:00:00",
                "updateTime": null
            },
            "assetLimits": null,
            "assetExtends": [{"extendCode": "gxxp", "extendValue": "1"}],
            "borrowedUsbKey": false
        }"#,
    );
    assert_eq!(a.id, "a1b2c3d4");
    assert_eq!(a.license_type, "cloud_customer");
    assert_eq!(a.asset_num, "8000000001");
    assert!(a.grantable);
    assert_eq!(a.customer_id, "1790000000000001");
    assert_eq!(a.key_shell_number, "8000000001");
    assert_eq!(a.key_chip_type, 2);
    assert!(!a.locked);
    assert!(!a.freezing);
    assert_eq!(a.create_time, 1_704_067_200_000);
    assert_eq!(a.update_time, 1_704_153_600_000);
    assert_eq!(a.limit_start_time, None);
    assert_eq!(a.limit_end_time, None);
    assert_eq!(
        a.assign_status,
        AssignStatus {
            id: "a1b2c3d4".into(),
            assign_status: "assigned".into(),
            assign_member_id: "MG-1".into(),
            create_time: "2024-01-01 08:00:00".into(),
            update_time: None,
        }
    );
    assert_eq!(a.asset_limits, None);
    assert_eq!(
        a.asset_extends,
        [AssetExtend {
            extend_code: "gxxp".into(),
            extend_value: "1".into()
        }]
    );
    assert!(!a.borrowed_usb_key);

    let v = write(&a);
    assert_eq!(
        v,
        json!({
            "id": "a1b2c3d4",
            "licenseType": "cloud_customer",
            "assetNum": "8000000001",
            "grantable": true,
            "customerId": "1790000000000001",
            "keyShellNumber": "8000000001",
            "keyChipType": 2,
            "locked": false,
            "freezing": false,
            "createTime": 1_704_067_200_000_i64,
            "updateTime": 1_704_153_600_000_i64,
            "limitStartTime": null,
            "limitEndTime": null,
            "assignStatus": {
                "id": "a1b2c3d4",
                "assignStatus": "assigned",
                "assignMemberId": "MG-1",
                "createTime": "2024-01-01 08:00:00",
                "updateTime": null
            },
            "assetLimits": null,
            "assetExtends": [{"extendCode": "gxxp", "extendValue": "1"}],
            "borrowedUsbKey": false
        })
    );
    // Present as null, not absent.
    for key in ["limitStartTime", "limitEndTime", "assetLimits"] {
        assert!(v.as_object().unwrap().contains_key(key), "{key} missing");
        assert!(v[key].is_null());
    }
    assert!(
        v["assignStatus"]
            .as_object()
            .unwrap()
            .contains_key("updateTime")
    );
}

#[test]
fn asset_of_a_large_customer_lock_round_trip() {
    let a: Asset = read(
        r#"{
            "id": "e5f6",
            "licenseType": "normal_unrecover_usbkey",
            "assetNum": "6000000007",
            "grantable": false,
            "customerId": "C-2",
            "keyShellNumber": "6000000007",
            "keyChipType": 1,
            "locked": true,
            "freezing": false,
            "createTime": 1704067200000,
            "updateTime": 1704067200000,
            "limitStartTime": 1704067200000,
            "limitEndTime": 1735689599000,
            "assignStatus": {
                "id": "e5f6",
                "assignStatus": "1",
                "assignMemberId": "MG-9",
                "createTime": "1704067200000",
                "updateTime": "1704153600000"
            },
            "assetLimits": {"maxNodes": 3},
            "assetExtends": [],
            "borrowedUsbKey": true
        }"#,
    );
    assert_eq!(a.key_chip_type, 1);
    assert!(a.locked);
    assert!(a.borrowed_usb_key);
    assert_eq!(a.limit_start_time, Some(1_704_067_200_000));
    assert_eq!(a.limit_end_time, Some(1_735_689_599_000));
    assert_eq!(
        a.assign_status.update_time.as_deref(),
        Some("1704153600000")
    );
    assert_eq!(a.asset_limits, Some(json!({"maxNodes": 3})));
    assert!(a.asset_extends.is_empty());
    assert_eq!(
        write(&a),
        json!({
            "id": "e5f6",
            "licenseType": "normal_unrecover_usbkey",
            "assetNum": "6000000007",
            "grantable": false,
            "customerId": "C-2",
            "keyShellNumber": "6000000007",
            "keyChipType": 1,
            "locked": true,
            "freezing": false,
            "createTime": 1_704_067_200_000_i64,
            "updateTime": 1_704_067_200_000_i64,
            "limitStartTime": 1_704_067_200_000_i64,
            "limitEndTime": 1_735_689_599_000_i64,
            "assignStatus": {
                "id": "e5f6",
                "assignStatus": "1",
                "assignMemberId": "MG-9",
                "createTime": "1704067200000",
                "updateTime": "1704153600000"
            },
            "assetLimits": {"maxNodes": 3},
            "assetExtends": [],
            "borrowedUsbKey": true
        })
    );
}

#[test]
fn asset_missing_fields_default_and_nullable_ones_are_written_as_null() {
    let a: Asset = read("{}");
    assert_eq!(a, Asset::default());
    assert_eq!(
        write(&a),
        json!({
            "id": "",
            "licenseType": "",
            "assetNum": "",
            "grantable": false,
            "customerId": "",
            "keyShellNumber": "",
            "keyChipType": 0,
            "locked": false,
            "freezing": false,
            "createTime": 0,
            "updateTime": 0,
            "limitStartTime": null,
            "limitEndTime": null,
            "assignStatus": {
                "id": "",
                "assignStatus": "",
                "assignMemberId": "",
                "createTime": "",
                "updateTime": null
            },
            "assetLimits": null,
            "assetExtends": [],
            "borrowedUsbKey": false
        })
    );
    // A license type newer than 2.6 still reads: the field is a plain string.
    let newer: Asset = read(r#"{"licenseType": "quantum_key"}"#);
    assert_eq!(newer.license_type, "quantum_key");
}

#[test]
fn asset_listing_envelope() {
    let env: OrderEnvelope<Vec<Asset>> = read(
        r#"{"code": 0, "message": "success", "data": [{"id": "A-1", "assetNum": "8000000001"}]}"#,
    );
    let data = env.data.unwrap();
    assert_eq!(data.len(), 1);
    assert_eq!(data[0].asset_num, "8000000001");
    assert_eq!(data[0].assign_status, AssignStatus::default());
}

#[test]
fn lock_request_round_trip() {
    let r: LockRequest =
        read(r#"{"assetNums": ["8000000001", "8000000002"], "operatorIdentity": "13800138000"}"#);
    assert_eq!(r.asset_nums, ["8000000001", "8000000002"]);
    assert_eq!(r.operator_identity.as_deref(), Some("13800138000"));
    assert_eq!(
        write(&r),
        json!({"assetNums": ["8000000001", "8000000002"], "operatorIdentity": "13800138000"})
    );

    let anonymous: LockRequest = read(r#"{"assetNums": ["8000000001"]}"#);
    assert_eq!(anonymous.operator_identity, None);
    assert_eq!(write(&anonymous), json!({"assetNums": ["8000000001"]}));
}

#[test]
fn lock_results_write_status_as_integer() {
    let env: OrderEnvelope<Vec<LockResult>> = read(
        r#"{"code": 0, "message": "success", "data": [
            {"assetNum": "8000000001", "status": 1},
            {"assetNum": "8000000002", "status": 2},
            {"assetNum": "8000000003", "status": 3},
            {"assetNum": "8000000004", "status": 4}
        ]}"#,
    );
    let data = env.data.as_ref().unwrap();
    assert_eq!(
        data.iter().map(|r| r.status).collect::<Vec<_>>(),
        [
            LockStatus::Success,
            LockStatus::NotFound,
            LockStatus::Failed,
            LockStatus::WrongType
        ]
    );
    assert_eq!(data[2].asset_num, "8000000003");
    assert_eq!(
        write(&env),
        json!({"code": 0, "message": "success", "data": [
            {"assetNum": "8000000001", "status": 1},
            {"assetNum": "8000000002", "status": 2},
            {"assetNum": "8000000003", "status": 3},
            {"assetNum": "8000000004", "status": 4}
        ]})
    );
    assert_eq!(write(&LockStatus::Success), json!(1));
    assert_eq!(write(&LockStatus::NotFound), json!(2));
    assert_eq!(write(&LockStatus::Failed), json!(3));
    assert_eq!(write(&LockStatus::WrongType), json!(4));
    assert!(write(&LockStatus::WrongType).is_u64());

    let e = parse_error::<Vec<LockResult>>(r#"[{"assetNum": "8000000001", "status": 5}]"#);
    assert_eq!(e.path, "[0].status");
}

#[test]
fn shellnums_request_and_answer_round_trip() {
    let r: ShellnumsRequest = read(r#"{"size": 10}"#);
    assert_eq!(r.size, Some(10));
    assert_eq!(write(&r), json!({"size": 10}));

    let none: ShellnumsRequest = read("{}");
    assert_eq!(none.size, None);
    assert_eq!(write(&none), json!({}));

    let env: OrderEnvelope<Vec<String>> =
        read(r#"{"code": 0, "message": "success", "data": ["8000000001", "8000000002"]}"#);
    assert_eq!(env.data.as_deref().unwrap(), ["8000000001", "8000000002"]);
    assert_eq!(
        write(&env),
        json!({"code": 0, "message": "success", "data": ["8000000001", "8000000002"]})
    );
}

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

#[test]
fn token_response_round_trip() {
    let t: TokenResponse = read(
        r#"{
            "access_token": "2YotnFZFEjr1zCsicMWpAA",
            "token_type": "bearer",
            "expires_in": 604800,
            "scope": "auth_order auth_activity"
        }"#,
    );
    assert_eq!(t.access_token, "2YotnFZFEjr1zCsicMWpAA");
    assert_eq!(t.token_type, "bearer");
    assert_eq!(t.expires_in, 604_800);
    assert_eq!(t.scope, "auth_order auth_activity");
    assert_eq!(
        write(&t),
        json!({
            "access_token": "2YotnFZFEjr1zCsicMWpAA",
            "token_type": "bearer",
            "expires_in": 604_800,
            "scope": "auth_order auth_activity"
        })
    );
    assert_eq!(wire::scopes::ORDER, "auth_order");
    assert_eq!(wire::scopes::ACTIVITY, "auth_activity");
}

#[test]
fn token_error_round_trip() {
    let e: TokenError =
        read(r#"{"error": "invalid_client", "error_description": "unknown application"}"#);
    assert_eq!(e.error, "invalid_client");
    assert_eq!(e.error_description, "unknown application");
    assert_eq!(
        write(&e),
        json!({"error": "invalid_client", "error_description": "unknown application"})
    );

    let bare: TokenError = read(r#"{"error": "invalid_grant"}"#);
    assert_eq!(
        write(&bare),
        json!({"error": "invalid_grant", "error_description": ""})
    );
}

// ---------------------------------------------------------------------------------------------
// 4.2 and 2.7: the activity group
// ---------------------------------------------------------------------------------------------

#[test]
fn claim_request_with_ext_params_object() {
    let r: ClaimRequest = read(
        r#"{
            "identity": "13800138000",
            "activityLabel": "spring-2024",
            "source": "shop.example.com",
            "branch": "杭州分公司",
            "extParams": {"mode": "sync"}
        }"#,
    );
    assert_eq!(r.identity.as_deref(), Some("13800138000"));
    assert_eq!(r.activity_label.as_deref(), Some("spring-2024"));
    assert_eq!(r.source.as_deref(), Some("shop.example.com"));
    assert_eq!(r.branch.as_deref(), Some("杭州分公司"));
    assert_eq!(r.ext_params, Some(json!({"mode": "sync"})));
    assert_eq!(
        write(&r),
        json!({
            "identity": "13800138000",
            "activityLabel": "spring-2024",
            "source": "shop.example.com",
            "branch": "杭州分公司",
            "extParams": {"mode": "sync"}
        })
    );
}

#[test]
fn claim_request_with_ext_params_string() {
    let r: ClaimRequest = read(
        r#"{
            "identity": "user@example.com",
            "activityLabel": "spring-2024",
            "source": "shop",
            "branch": "HZ",
            "extParams": "{\"mode\":\"sync\"}"
        }"#,
    );
    assert_eq!(r.identity.as_deref(), Some("user@example.com"));
    assert_eq!(r.ext_params, Some(json!(r#"{"mode":"sync"}"#)));
    assert_eq!(
        write(&r),
        json!({
            "identity": "user@example.com",
            "activityLabel": "spring-2024",
            "source": "shop",
            "branch": "HZ",
            "extParams": "{\"mode\":\"sync\"}"
        })
    );

    let bare: ClaimRequest = read(r#"{"identity": "8000000001", "extParams": null}"#);
    assert_eq!(bare.ext_params, None);
    assert_eq!(write(&bare), json!({"identity": "8000000001"}));
}

#[test]
fn activity_response_with_detail_round_trip() {
    let r: ActivityResponse = read(
        r#"{
            "resultCode": "0000",
            "resultMessage": "success",
            "detail": {
                "products": [
                    {
                        "activityId": "ACT-1",
                        "subActivityId": "SUB-1",
                        "productUri": "gms-100",
                        "limitStartDate": "1704067200000",
                        "limitEndDate": "1735689599000",
                        "activateType": "0"
                    },
                    {
                        "activityId": "ACT-1",
                        "subActivityId": "SUB-2",
                        "productUri": "ak-200",
                        "limitStartDate": "1704067200000",
                        "limitEndDate": "1706745600000",
                        "activateType": "1"
                    }
                ]
            }
        }"#,
    );
    assert_eq!(r.result_code, wire::activity::CLAIMED);
    assert_eq!(r.result_message, "success");
    assert_eq!(r.activity_dto_list, None);
    let detail = r.detail.as_ref().expect("detail");
    assert_eq!(
        detail.products[0],
        ClaimedProduct {
            activity_id: "ACT-1".into(),
            sub_activity_id: "SUB-1".into(),
            product_uri: "gms-100".into(),
            limit_start_date: "1704067200000".into(),
            limit_end_date: "1735689599000".into(),
            activate_type: "0".into(),
        }
    );
    assert_eq!(detail.products[1].activate_type, "1");
    let v = write(&r);
    assert_eq!(
        v,
        json!({
            "resultCode": "0000",
            "resultMessage": "success",
            "detail": {
                "products": [
                    {
                        "activityId": "ACT-1",
                        "subActivityId": "SUB-1",
                        "productUri": "gms-100",
                        "limitStartDate": "1704067200000",
                        "limitEndDate": "1735689599000",
                        "activateType": "0"
                    },
                    {
                        "activityId": "ACT-1",
                        "subActivityId": "SUB-2",
                        "productUri": "ak-200",
                        "limitStartDate": "1704067200000",
                        "limitEndDate": "1706745600000",
                        "activateType": "1"
                    }
                ]
            }
        })
    );
    assert_eq!(keys(&v), ["detail", "resultCode", "resultMessage"]);
}

#[test]
fn activity_response_with_activity_dto_list_round_trip() {
    let r: ActivityResponse = read(
        r#"{
            "resultCode": "3002",
            "resultMessage": "不满足领取条件",
            "activityDtoList": [
                {
                    "id": "ACT-1",
                    "name": "春季活动",
                    "participateResult": false,
                    "engineSubActivityDtos": [
                        {
                            "id": "SUB-1",
                            "name": "单元一",
                            "participateResult": false,
                            "errorCode": 14005,
                            "errorMessage": "个人领取次数已超出"
                        }
                    ]
                }
            ]
        }"#,
    );
    assert_eq!(r.result_code, wire::activity::NOT_ELIGIBLE);
    assert_eq!(r.detail, None);
    let list = r.activity_dto_list.as_ref().expect("activityDtoList");
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].id, "ACT-1");
    assert_eq!(list[0].name, "春季活动");
    assert!(!list[0].participate_result);
    assert_eq!(
        list[0].engine_sub_activity_dtos,
        [SubActivityDto {
            id: "SUB-1".into(),
            name: "单元一".into(),
            participate_result: false,
            error_code: Some(14005),
            error_message: Some("个人领取次数已超出".into()),
        }]
    );
    let v = write(&r);
    assert_eq!(
        v,
        json!({
            "resultCode": "3002",
            "resultMessage": "不满足领取条件",
            "activityDtoList": [
                {
                    "id": "ACT-1",
                    "name": "春季活动",
                    "participateResult": false,
                    "engineSubActivityDtos": [
                        {
                            "id": "SUB-1",
                            "name": "单元一",
                            "participateResult": false,
                            "errorCode": 14005,
                            "errorMessage": "个人领取次数已超出"
                        }
                    ]
                }
            ]
        })
    );
    assert_eq!(keys(&v), ["activityDtoList", "resultCode", "resultMessage"]);
}

#[test]
fn activity_failure_has_only_code_and_message() {
    let v = write(&ActivityResponse::failure(
        wire::activity::NO_ACTIVITY,
        "活动不存在",
    ));
    assert_eq!(
        v,
        json!({"resultCode": "3001", "resultMessage": "活动不存在"})
    );
    let r: ActivityResponse = read(r#"{"resultCode": "1001", "resultMessage": "g_nonce reused"}"#);
    assert_eq!(
        r,
        ActivityResponse::failure(wire::activity::BAD_PARAMETER, "g_nonce reused")
    );
    assert_eq!(wire::activity::CLAIMED, "0000");
    assert_eq!(wire::activity::BAD_PARAMETER, "1001");
    assert_eq!(wire::activity::PROCESSING, "1002");
    assert_eq!(wire::activity::BAD_IDENTITY, "1004");
    assert_eq!(wire::activity::FILTERED, "2001");
    assert_eq!(wire::activity::NO_ACTIVITY, "3001");
    assert_eq!(wire::activity::NOT_ELIGIBLE, "3002");
}

#[test]
fn claimed_product_round_trip() {
    let p: ClaimedProduct = read(
        r#"{"activityId": "ACT-1", "subActivityId": "SUB-1", "productUri": "gms-100",
            "limitStartDate": "1704067200000", "limitEndDate": "1735689599000",
            "activateType": "1"}"#,
    );
    assert_eq!(p.activity_id, "ACT-1");
    assert_eq!(p.sub_activity_id, "SUB-1");
    assert_eq!(p.product_uri, "gms-100");
    assert_eq!(p.limit_start_date, "1704067200000");
    assert_eq!(p.limit_end_date, "1735689599000");
    assert_eq!(p.activate_type, "1");
    assert_eq!(
        write(&p),
        json!({"activityId": "ACT-1", "subActivityId": "SUB-1", "productUri": "gms-100",
               "limitStartDate": "1704067200000", "limitEndDate": "1735689599000",
               "activateType": "1"})
    );
    let detail: ClaimDetail = read(r#"{}"#);
    assert!(detail.products.is_empty());
    assert_eq!(write(&detail), json!({"products": []}));
}

#[test]
fn activity_dto_round_trip() {
    let d: ActivityDto = read(
        r#"{"id": "ACT-2", "name": "秋季活动", "participateResult": true,
            "engineSubActivityDtos": [
                {"id": "SUB-3", "name": "单元三", "participateResult": true},
                {"id": "SUB-4", "name": "单元四", "participateResult": false,
                 "errorCode": 14004, "errorMessage": "库存不足"}
            ]}"#,
    );
    assert_eq!(d.id, "ACT-2");
    assert_eq!(d.name, "秋季活动");
    assert!(d.participate_result);
    assert_eq!(d.engine_sub_activity_dtos.len(), 2);
    assert_eq!(d.engine_sub_activity_dtos[0].error_code, None);
    assert_eq!(d.engine_sub_activity_dtos[1].error_code, Some(14004));
    assert_eq!(
        write(&d),
        json!({"id": "ACT-2", "name": "秋季活动", "participateResult": true,
        "engineSubActivityDtos": [
            {"id": "SUB-3", "name": "单元三", "participateResult": true,
             "errorCode": null, "errorMessage": null},
            {"id": "SUB-4", "name": "单元四", "participateResult": false,
             "errorCode": 14004, "errorMessage": "库存不足"}
        ]})
    );
}

#[test]
fn sub_activity_dto_round_trip() {
    let s: SubActivityDto = read(
        r#"{"id": "SUB-1", "name": "单元一", "participateResult": false,
            "errorCode": 14005, "errorMessage": "个人领取次数已超出"}"#,
    );
    assert_eq!(s.id, "SUB-1");
    assert_eq!(s.name, "单元一");
    assert!(!s.participate_result);
    assert_eq!(s.error_code, Some(14005));
    assert_eq!(s.error_message.as_deref(), Some("个人领取次数已超出"));
    assert_eq!(
        write(&s),
        json!({"id": "SUB-1", "name": "单元一", "participateResult": false,
               "errorCode": 14005, "errorMessage": "个人领取次数已超出"})
    );
}

#[test]
fn paths_are_the_interface_paths() {
    use wire::paths;
    assert_eq!(paths::BIND, "/order/api/order/v1/enterprise/user/bind");
    assert_eq!(paths::CREATE, "/order/api/order/v1/enterprise/user/create");
    assert_eq!(paths::QUERY, "/order/api/order/v1/enterprise/user/query");
    assert_eq!(paths::UPDATE, "/order/api/order/v1/enterprise/user/update");
    assert_eq!(
        paths::BATCH_ORDER,
        "/order/api/order/v1/licenseOrder/batchOrder"
    );
    assert_eq!(paths::LOCK, "/order/api/order/v1/asset/lock");
    assert_eq!(paths::UNLOCK, "/order/api/order/v1/asset/unlock");
    assert_eq!(paths::SHELLNUMS, "/order/api/order/v1/shellnums");
    assert_eq!(paths::ACTIVITY, "/activity/services/activity");
    assert_eq!(
        paths::asset_list("EG-20240001"),
        "/order/api/order/v1/asset/EG-20240001/list"
    );
}

// ---------------------------------------------------------------------------------------------
// wire::parse::json
// ---------------------------------------------------------------------------------------------

#[test]
fn parse_names_the_path_of_a_deep_type_error() {
    let text = r#"{"orderList": [{"sequence": 1, "assets": [{"assetNos": ["8000000001"],
"products": [{"productUri": "gms-100"}, {"productUri": "gms-101", "limitConcurrent": "five"}]}]}]}"#;
    let e = parse_error::<BatchOrderRequest>(text);
    assert_eq!(e.path, "orderList[0].assets[0].products[1].limitConcurrent");
    assert_eq!(e.line, 2);
    let column = text.lines().nth(1).unwrap().find(r#""five""#).unwrap() + r#""five""#.len();
    assert_eq!(e.column, column);
    assert_eq!(
        e.message,
        format!(r#"invalid type: string "five", expected i32 at line 2 column {column}"#)
    );
    assert_eq!(
        e.to_string(),
        format!(
            r#"orderList[0].assets[0].products[1].limitConcurrent: invalid type: string "five", expected i32 at line 2 column {column}"#
        )
    );
}

#[test]
fn parse_names_the_path_inside_merchandise_children() {
    let text = r#"{"orderList": [{"assets": [{"merchandises": [{"children": [
        {"licenseOrderProductList": [{"trial": true}]}]}]}]}]}"#;
    let e = parse_error::<BatchOrderRequest>(text);
    assert_eq!(
        e.path,
        "orderList[0].assets[0].merchandises[0].children[0].licenseOrderProductList[0].trial"
    );
    assert!(
        e.message
            .starts_with("invalid type: boolean `true`, expected i32"),
        "{e}"
    );
}

#[test]
fn parse_gives_line_and_column_of_malformed_json() {
    let text = "{\n  \"channelCode\": \"CH_EAST\"\n  \"channelOrderId\": \"SO-1\"\n}";
    let e = parse_error::<BatchOrderRequest>(text);
    assert_eq!(e.line, 3);
    assert_eq!(e.column, 3);
    assert_eq!(e.message, "expected `,` or `}` at line 3 column 3");

    let e = parse_error::<ShellnumsRequest>("{\"size\": }");
    assert_eq!((e.line, e.column), (1, 10));
    assert_eq!(e.message, "expected value at line 1 column 10");

    let e = parse_error::<ShellnumsRequest>("");
    assert_eq!(e.path, "");
    assert_eq!((e.line, e.column), (1, 0));
    assert_eq!(e.message, "EOF while parsing a value at line 1 column 0");
    assert_eq!(
        e.to_string(),
        "body: EOF while parsing a value at line 1 column 0"
    );

    let e = parse_error::<ShellnumsRequest>("{\"size\": 1");
    assert_eq!(e.message, "EOF while parsing an object at line 1 column 10");
}

#[test]
fn parse_rejects_trailing_garbage() {
    let e = parse_error::<ShellnumsRequest>(r#"{"size": 1} x"#);
    assert_eq!(e.path, "");
    assert_eq!((e.line, e.column), (1, 13));
    assert_eq!(e.message, "trailing characters at line 1 column 13");
    assert_eq!(
        e.to_string(),
        "body: trailing characters at line 1 column 13"
    );

    let e = parse_error::<ShellnumsRequest>(r#"{"size": 1}{"size": 2}"#);
    assert_eq!(e.path, "");
    assert_eq!(e.message, "trailing characters at line 1 column 12");

    // Trailing whitespace is fine.
    let r: ShellnumsRequest = read("{\"size\": 1}\n\t \r\n");
    assert_eq!(r.size, Some(1));
}

#[test]
fn parse_rejects_an_i32_out_of_range() {
    let text = r#"{"orderList": [{"sequence": 3000000000}]}"#;
    let e = parse_error::<BatchOrderRequest>(text);
    assert_eq!(e.path, "orderList[0].sequence");
    let column = text.find("3000000000").unwrap() + "3000000000".len();
    assert_eq!((e.line, e.column), (1, column));
    assert_eq!(
        e.message,
        format!("invalid value: integer `3000000000`, expected i32 at line 1 column {column}")
    );
    assert_eq!(
        e.to_string(),
        format!(
            "orderList[0].sequence: invalid value: integer `3000000000`, expected i32 at line 1 column {column}"
        )
    );

    // The bounds themselves read.
    let r: BatchOrderRequest =
        read(r#"{"orderList": [{"sequence": 2147483647}, {"sequence": -2147483648}]}"#);
    assert_eq!(r.order_list[0].sequence, Some(i32::MAX));
    assert_eq!(r.order_list[1].sequence, Some(i32::MIN));
}

#[test]
fn parse_rejects_a_body_of_the_wrong_kind() {
    let e = parse_error::<BatchOrderRequest>(r#""orders""#);
    assert_eq!(e.path, "");
    assert_eq!(
        e.message,
        r#"invalid type: string "orders", expected struct BatchOrderRequest at line 1 column 8"#
    );
    let e = parse_error::<ShellnumsRequest>("null");
    assert_eq!(e.path, "");
    assert!(
        e.message
            .starts_with("invalid type: null, expected struct ShellnumsRequest"),
        "{e}"
    );

    let e = parse_error::<BatchOrderRequest>(r#"{"orderList": {"sequence": 1}}"#);
    assert_eq!(e.path, "orderList");

    let e = parse_error::<BatchOrderRequest>(
        r#"{"orderList": [{"assets": [{"assetNos": "8000000001"}]}]}"#,
    );
    assert_eq!(e.path, "orderList[0].assets[0].assetNos");
}

// ---------------------------------------------------------------------------------------------
// wire::validate: operation 5
// ---------------------------------------------------------------------------------------------

/// A batch that meets every rule: a new_buy with products and a two-level merchandise tree,
/// and a delete_product of a cloud license type that names its source order.
fn valid_batch() -> Value {
    json!({
        "channelCode": "CH_EAST",
        "channelOrderId": "SO-2024-0001",
        "syncMode": "sync",
        "orderList": [
            {
                "sequence": 1,
                "customerId": "1790000000000001",
                "customerName": "杭州某某科技有限公司",
                "adminEmail": "zhangsan@example.com",
                "adminCellNumber": "13800138000",
                "passwordMobile": "13900139000",
                "customerType": "company",
                "licenseType": "normal_recover_usbkey",
                "orderType": "new_buy",
                "assets": [{
                    "assetNos": ["8000000001", "8000000002"],
                    "assetExtendList": [{"extendCode": "gxxp", "extendValue": "1"}],
                    "limitStartDate": 1_704_067_200_000_i64,
                    "limitEndDate": 1_735_689_599_000_i64,
                    "products": [
                        {
                            "productUri": "gms-100",
                            "limitStartDate": 1_704_067_200_000_i64,
                            "limitEndDate": 1_735_689_599_000_i64,
                            "limitConcurrent": 3,
                            "trial": 0,
                            "productFeatures": [{"featureCode": "F-NODES", "trial": 1}]
                        },
                        {"productUri": "ak-200"}
                    ],
                    "merchandises": [{
                        "merchandiseNum": "M-100",
                        "children": [{
                            "merchandiseNum": "M-110",
                            "children": null,
                            "licenseOrderProductList": [{"productUri": "gms-300"}]
                        }],
                        "licenseOrderProductList": [{"productUri": "gms-200"}]
                    }]
                }]
            },
            {
                "sequence": 2,
                "channelCustomerId": "CC-0042",
                "srcLicenseOrderId": "LO-0001",
                "licenseType": "cloud_customer",
                "orderType": "delete_product",
                "assets": [{
                    "assetNos": ["8000000009"],
                    "products": [{"productUri": "gms-100", "strictMatchWhenDelete": true}]
                }]
            }
        ]
    })
}

fn batch_problems(batch: &Value) -> Vec<(String, String)> {
    let request: BatchOrderRequest = read(&batch.to_string());
    problems(validate::batch_order(&request))
}

/// Sets the value at `pointer`, adding the last key when the object lacks it.
fn set(batch: &mut Value, pointer: &str, value: Value) {
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
    match batch
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"))
    {
        Value::Object(map) => {
            map.insert(key.to_owned(), value);
        }
        Value::Array(list) => {
            let index: usize = key.parse().expect("an index");
            list[index] = value;
        }
        other => panic!("cannot set {key} in {other}"),
    }
}

fn remove(batch: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
    batch
        .pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("no object at {parent}"))
        .remove(key)
        .unwrap_or_else(|| panic!("no {pointer}"));
}

const P0: &str = "/orderList/0/assets/0/products/0";

#[test]
fn valid_batch_has_no_problems() {
    assert_eq!(batch_problems(&valid_batch()), []);
}

struct Case {
    name: &'static str,
    edit: fn(&mut Value),
    expected: &'static [(&'static str, &'static str)],
}

#[test]
fn broken_batches_name_the_field_and_the_rule() {
    let cases = [
        Case {
            name: "missing productUri",
            edit: |b| remove(b, &format!("{P0}/productUri")),
            expected: &[(
                "orderList[0].assets[0].products[0].productUri",
                "required for new_buy",
            )],
        },
        Case {
            name: "blank productUri",
            edit: |b| set(b, &format!("{P0}/productUri"), json!("  ")),
            expected: &[(
                "orderList[0].assets[0].products[0].productUri",
                "required for new_buy",
            )],
        },
        Case {
            name: "missing productUri in a delete_product",
            edit: |b| remove(b, "/orderList/1/assets/0/products/0/productUri"),
            expected: &[(
                "orderList[1].assets[0].products[0].productUri",
                "required for delete_product",
            )],
        },
        Case {
            name: "productUri too long",
            edit: |b| set(b, &format!("{P0}/productUri"), json!("g".repeat(129))),
            expected: &[(
                "orderList[0].assets[0].products[0].productUri",
                "at most 128 characters",
            )],
        },
        Case {
            name: "duplicate sequence",
            edit: |b| set(b, "/orderList/1/sequence", json!(1)),
            expected: &[("orderList[1].sequence", "1 is already used by orderList[0]")],
        },
        Case {
            name: "missing sequence",
            edit: |b| remove(b, "/orderList/0/sequence"),
            expected: &[("orderList[0].sequence", "required")],
        },
        Case {
            name: "negative sequence",
            edit: |b| set(b, "/orderList/0/sequence", json!(-1)),
            expected: &[("orderList[0].sequence", "must not be negative")],
        },
        Case {
            name: "cloud delete_product without srcLicenseOrderId",
            edit: |b| remove(b, "/orderList/1/srcLicenseOrderId"),
            expected: &[(
                "orderList[1].srcLicenseOrderId",
                "required for delete_product orders of the cloud license type cloud_customer",
            )],
        },
        Case {
            name: "cloud delete_asset with a blank srcLicenseOrderId",
            edit: |b| {
                set(b, "/orderList/1/srcLicenseOrderId", json!(" "));
                set(b, "/orderList/1/licenseType", json!("cloud_personal"));
                set(b, "/orderList/1/orderType", json!("delete_asset"));
                set(b, "/orderList/1/assets/0/products", json!([]));
            },
            expected: &[(
                "orderList[1].srcLicenseOrderId",
                "required for delete_asset orders of the cloud license type cloud_personal",
            )],
        },
        Case {
            name: "non-cloud delete without srcLicenseOrderId is fine",
            edit: |b| {
                remove(b, "/orderList/1/srcLicenseOrderId");
                set(b, "/orderList/1/licenseType", json!("softkey"));
            },
            expected: &[],
        },
        Case {
            name: "asset limitEndDate before limitStartDate",
            edit: |b| set(b, "/orderList/0/assets/0/limitEndDate", json!(1_000)),
            expected: &[(
                "orderList[0].assets[0].limitEndDate",
                "must not be before limitStartDate",
            )],
        },
        Case {
            name: "product limitEndDate before limitStartDate",
            edit: |b| set(b, &format!("{P0}/limitEndDate"), json!(1_000)),
            expected: &[(
                "orderList[0].assets[0].products[0].limitEndDate",
                "must not be before limitStartDate",
            )],
        },
        Case {
            name: "negative limitStartDate",
            edit: |b| set(b, "/orderList/0/assets/0/limitStartDate", json!(-1)),
            expected: &[(
                "orderList[0].assets[0].limitStartDate",
                "must not be negative",
            )],
        },
        Case {
            name: "negative limitConcurrent",
            edit: |b| set(b, &format!("{P0}/limitConcurrent"), json!(-3)),
            expected: &[(
                "orderList[0].assets[0].products[0].limitConcurrent",
                "must not be negative",
            )],
        },
        Case {
            name: "trial 2",
            edit: |b| set(b, &format!("{P0}/trial"), json!(2)),
            expected: &[("orderList[0].assets[0].products[0].trial", "must be 0 or 1")],
        },
        Case {
            name: "feature trial 2",
            edit: |b| set(b, &format!("{P0}/productFeatures/0/trial"), json!(2)),
            expected: &[(
                "orderList[0].assets[0].products[0].productFeatures[0].trial",
                "must be 0 or 1",
            )],
        },
        Case {
            name: "feature without featureCode",
            edit: |b| remove(b, &format!("{P0}/productFeatures/0/featureCode")),
            expected: &[(
                "orderList[0].assets[0].products[0].productFeatures[0].featureCode",
                "required",
            )],
        },
        Case {
            name: "empty orderList",
            edit: |b| set(b, "/orderList", json!([])),
            expected: &[("orderList", "at least one order required")],
        },
        Case {
            name: "missing channelCode and channelOrderId",
            edit: |b| {
                remove(b, "/channelCode");
                set(b, "/channelOrderId", json!(""));
            },
            expected: &[("channelCode", "required"), ("channelOrderId", "required")],
        },
        Case {
            name: "blank asset number",
            edit: |b| set(b, "/orderList/0/assets/0/assetNos/0", json!("   ")),
            expected: &[("orderList[0].assets[0].assetNos[0]", "must not be blank")],
        },
        Case {
            name: "asset number with a space",
            edit: |b| set(b, "/orderList/0/assets/0/assetNos/1", json!("8000 000002")),
            expected: &[(
                "orderList[0].assets[0].assetNos[1]",
                "must not contain spaces or control characters",
            )],
        },
        Case {
            name: "asset number too long",
            edit: |b| set(b, "/orderList/0/assets/0/assetNos/0", json!("8".repeat(65))),
            expected: &[(
                "orderList[0].assets[0].assetNos[0]",
                "at most 64 characters",
            )],
        },
        Case {
            name: "duplicate asset number in one entry",
            edit: |b| set(b, "/orderList/0/assets/0/assetNos/1", json!("8000000001")),
            expected: &[(
                "orderList[0].assets[0].assetNos[1]",
                "8000000001 is already listed at assetNos[0]",
            )],
        },
        Case {
            name: "no asset numbers",
            edit: |b| set(b, "/orderList/0/assets/0/assetNos", json!([])),
            expected: &[(
                "orderList[0].assets[0].assetNos",
                "at least one asset number required",
            )],
        },
        Case {
            name: "extend entry without extendCode",
            edit: |b| remove(b, "/orderList/0/assets/0/assetExtendList/0/extendCode"),
            expected: &[(
                "orderList[0].assets[0].assetExtendList[0].extendCode",
                "required",
            )],
        },
        Case {
            name: "products in delete_asset",
            edit: |b| set(b, "/orderList/1/orderType", json!("delete_asset")),
            expected: &[(
                "orderList[1].assets[0].products",
                "must be empty for delete_asset, which removes whole assets (use delete_product to remove products)",
            )],
        },
        Case {
            name: "merchandises in delete_asset",
            edit: |b| {
                set(b, "/orderList/1/orderType", json!("delete_asset"));
                set(b, "/orderList/1/assets/0/products", json!([]));
                set(
                    b,
                    "/orderList/1/assets/0/merchandises",
                    json!([{"merchandiseNum": "M-1"}]),
                );
            },
            expected: &[(
                "orderList[1].assets[0].merchandises",
                "must be empty for delete_asset",
            )],
        },
        Case {
            name: "delete_product without products",
            edit: |b| set(b, "/orderList/1/assets/0/products", json!(null)),
            expected: &[(
                "orderList[1].assets[0].products",
                "at least one product required for delete_product",
            )],
        },
        Case {
            name: "merchandises in delete_product",
            edit: |b| {
                set(
                    b,
                    "/orderList/1/assets/0/merchandises",
                    json!([{"merchandiseNum": "M-1"}]),
                );
            },
            expected: &[(
                "orderList[1].assets[0].merchandises",
                "must be empty for delete_product: name the products to remove",
            )],
        },
        Case {
            name: "new_buy with neither products nor merchandises",
            edit: |b| {
                set(b, "/orderList/0/assets/0/products", json!([]));
                remove(b, "/orderList/0/assets/0/merchandises");
            },
            expected: &[(
                "orderList[0].assets[0].products",
                "at least one product or merchandise required for new_buy",
            )],
        },
        Case {
            name: "new_buy with merchandises only is fine",
            edit: |b| set(b, "/orderList/0/assets/0/products", json!([])),
            expected: &[],
        },
        Case {
            name: "no assets",
            edit: |b| set(b, "/orderList/0/assets", json!([])),
            expected: &[("orderList[0].assets", "at least one asset required")],
        },
        Case {
            name: "missing licenseType: the rest of the order is still checked",
            edit: |b| {
                remove(b, "/orderList/0/licenseType");
                set(b, "/orderList/0/assets", json!([]));
            },
            expected: &[
                ("orderList[0].licenseType", "required"),
                ("orderList[0].assets", "at least one asset required"),
            ],
        },
        Case {
            name: "missing orderType",
            edit: |b| remove(b, "/orderList/0/orderType"),
            expected: &[("orderList[0].orderType", "required")],
        },
        Case {
            name: "neither customerId nor channelCustomerId",
            edit: |b| set(b, "/orderList/0/customerId", json!(" ")),
            expected: &[(
                "orderList[0].customerId",
                "required when channelCustomerId is empty",
            )],
        },
        Case {
            name: "customerName too long",
            edit: |b| set(b, "/orderList/0/customerName", json!("名".repeat(513))),
            expected: &[("orderList[0].customerName", "at most 512 characters")],
        },
        Case {
            name: "bad adminCellNumber",
            edit: |b| set(b, "/orderList/0/adminCellNumber", json!("23800138000")),
            expected: &[(
                "orderList[0].adminCellNumber",
                "must be a mobile number: 1 followed by 10 digits",
            )],
        },
        Case {
            name: "empty passwordMobile is fine",
            edit: |b| set(b, "/orderList/0/passwordMobile", json!("")),
            expected: &[],
        },
        Case {
            name: "bad adminEmail",
            edit: |b| set(b, "/orderList/0/adminEmail", json!("zhangsan.example.com")),
            expected: &[("orderList[0].adminEmail", "must be an e-mail address")],
        },
        Case {
            name: "merchandise without merchandiseNum",
            edit: |b| remove(b, "/orderList/0/assets/0/merchandises/0/merchandiseNum"),
            expected: &[(
                "orderList[0].assets[0].merchandises[0].merchandiseNum",
                "required",
            )],
        },
        Case {
            name: "nested merchandise child product missing productUri",
            edit: |b| {
                remove(
                    b,
                    "/orderList/0/assets/0/merchandises/0/children/0/licenseOrderProductList/0/productUri",
                )
            },
            expected: &[(
                "orderList[0].assets[0].merchandises[0].children[0].licenseOrderProductList[0].productUri",
                "required for new_buy",
            )],
        },
        Case {
            name: "several problems, in order",
            edit: |b| {
                set(b, "/channelCode", json!(""));
                set(b, &format!("{P0}/trial"), json!(7));
                remove(b, &format!("{P0}/productUri"));
                remove(b, "/orderList/0/assets/0/products/1/productUri");
                set(b, "/orderList/1/sequence", json!(1));
            },
            expected: &[
                ("channelCode", "required"),
                (
                    "orderList[0].assets[0].products[0].productUri",
                    "required for new_buy",
                ),
                ("orderList[0].assets[0].products[0].trial", "must be 0 or 1"),
                (
                    "orderList[0].assets[0].products[1].productUri",
                    "required for new_buy",
                ),
                ("orderList[1].sequence", "1 is already used by orderList[0]"),
            ],
        },
    ];

    for case in cases {
        let mut batch = valid_batch();
        (case.edit)(&mut batch);
        assert_eq!(
            batch_problems(&batch),
            expect(case.expected),
            "case: {}",
            case.name
        );
    }
}

/// An asset entry whose merchandise tree is `levels` deep, with a product at the bottom.
fn batch_with_merchandise_depth(levels: usize) -> Value {
    let mut node = json!({
        "merchandiseNum": format!("M-{levels}"),
        "children": null,
        "licenseOrderProductList": [{"productUri": "gms-deep"}]
    });
    for level in (1..levels).rev() {
        node = json!({"merchandiseNum": format!("M-{level}"), "children": [node]});
    }
    let mut batch = valid_batch();
    set(
        &mut batch,
        "/orderList/0/assets/0/merchandises",
        json!([node]),
    );
    batch
}

#[test]
fn merchandise_trees_are_limited_in_depth() {
    assert_eq!(validate::MAX_MERCHANDISE_DEPTH, 16);

    let at_limit = batch_with_merchandise_depth(validate::MAX_MERCHANDISE_DEPTH);
    assert_eq!(batch_problems(&at_limit), []);

    // The bottom product is checked at the limit, with its full path.
    let mut bottom_without_uri = at_limit.clone();
    let pointer = format!(
        "/orderList/0/assets/0/merchandises/0{}/licenseOrderProductList/0/productUri",
        "/children/0".repeat(15)
    );
    remove(&mut bottom_without_uri, &pointer);
    assert_eq!(
        batch_problems(&bottom_without_uri),
        [(
            format!(
                "orderList[0].assets[0].merchandises[0]{}.licenseOrderProductList[0].productUri",
                ".children[0]".repeat(15)
            ),
            "required for new_buy".to_owned()
        )]
    );

    let too_deep = batch_with_merchandise_depth(validate::MAX_MERCHANDISE_DEPTH + 1);
    assert_eq!(
        batch_problems(&too_deep),
        [(
            format!(
                "orderList[0].assets[0].merchandises[0]{}.children",
                ".children[0]".repeat(15)
            ),
            "merchandise trees are at most 16 levels deep".to_owned()
        )]
    );
}

// ---------------------------------------------------------------------------------------------
// wire::validate: the other operations
// ---------------------------------------------------------------------------------------------

fn valid_bind() -> BindRequest {
    BindRequest {
        channel_code: Some("CH_EAST".into()),
        channel_customer_id: Some("CC-0042".into()),
        customer_name: Some("杭州某某科技有限公司".into()),
        branch_name: Some("杭州分公司".into()),
        enterprise_name: Some("某某集团".into()),
        password_mobile: Some("13800138000".into()),
    }
}

#[test]
fn bind_validation() {
    assert_eq!(validate::bind(&valid_bind()), []);

    assert_eq!(
        problems(validate::bind(&BindRequest::default())),
        expect(&[
            ("channelCode", "required"),
            ("channelCustomerId", "required"),
            ("customerName", "required"),
            ("enterpriseName", "required"),
        ])
    );

    let optional_absent = BindRequest {
        branch_name: None,
        password_mobile: None,
        ..valid_bind()
    };
    assert_eq!(validate::bind(&optional_absent), []);

    let bad = BindRequest {
        channel_code: Some("C".repeat(129)),
        customer_name: Some(" \t".into()),
        branch_name: Some("分".repeat(513)),
        password_mobile: Some("1380013800".into()),
        ..valid_bind()
    };
    assert_eq!(
        problems(validate::bind(&bad)),
        expect(&[
            ("channelCode", "at most 128 characters"),
            ("customerName", "required"),
            ("branchName", "at most 512 characters"),
            (
                "passwordMobile",
                "must be a mobile number: 1 followed by 10 digits"
            ),
        ])
    );

    // Lengths count characters, not bytes.
    let chinese_at_limit = BindRequest {
        customer_name: Some("名".repeat(512)),
        ..valid_bind()
    };
    assert_eq!(validate::bind(&chinese_at_limit), []);

    let problem = &validate::bind(&BindRequest {
        enterprise_name: None,
        ..valid_bind()
    })[0];
    assert_eq!(problem.to_string(), "enterpriseName: required");
}

#[test]
fn enterprise_validation() {
    let valid = EnterpriseRequest {
        crm_customer_id: Some("CRM-0042".into()),
        customer_name: Some("杭州某某科技有限公司".into()),
        branch_name: None,
        address: Some("杭州市西湖区文三路 1 号".into()),
    };
    assert_eq!(validate::enterprise(&valid), []);
    assert_eq!(
        problems(validate::enterprise(&EnterpriseRequest::default())),
        expect(&[("crmCustomerId", "required"), ("customerName", "required")])
    );
    let long_address = EnterpriseRequest {
        address: Some("a".repeat(513)),
        ..valid.clone()
    };
    assert_eq!(
        problems(validate::enterprise(&long_address)),
        expect(&[("address", "at most 512 characters")])
    );
}

#[test]
fn customer_query_validation() {
    let valid = CustomerQuery {
        channel_code: Some("CH_EAST".into()),
        channel_customer_id: Some("CC-0042".into()),
        default_customer: None,
    };
    assert_eq!(validate::customer_query(&valid), []);
    assert_eq!(
        problems(validate::customer_query(&CustomerQuery::default())),
        expect(&[
            ("channelCode", "required"),
            ("channelCustomerId", "required")
        ])
    );
}

#[test]
fn lock_validation() {
    let valid = LockRequest {
        asset_nums: vec![
            "8000000001".into(),
            "not a number at all".into(),
            String::new(),
        ],
        operator_identity: Some("ops@example.com".into()),
    };
    // Malformed asset numbers get their own per-asset status, not a problem of the call.
    assert_eq!(validate::lock(&valid), []);

    assert_eq!(
        problems(validate::lock(&LockRequest::default())),
        expect(&[
            ("assetNums", "at least one asset number required"),
            ("operatorIdentity", "required"),
        ])
    );

    assert_eq!(validate::MAX_LOCK_ASSETS, 10_000);
    let at_limit = LockRequest {
        asset_nums: vec!["8000000001".into(); 10_000],
        operator_identity: Some("ops".into()),
    };
    assert_eq!(validate::lock(&at_limit), []);
    let too_many = LockRequest {
        asset_nums: vec!["8000000001".into(); 10_001],
        operator_identity: Some("ops".into()),
    };
    assert_eq!(
        problems(validate::lock(&too_many)),
        expect(&[("assetNums", "at most 10000 asset numbers per call")])
    );
}

#[test]
fn shellnums_validation() {
    assert_eq!(validate::MAX_SHELLNUMS, 1000);
    for ok in [1, 10, 1000] {
        assert_eq!(
            validate::shellnums(&ShellnumsRequest { size: Some(ok) }),
            [],
            "size {ok}"
        );
    }
    for bad in [0, 1001, -1, i32::MIN, i32::MAX] {
        assert_eq!(
            problems(validate::shellnums(&ShellnumsRequest { size: Some(bad) })),
            expect(&[("size", "must be between 1 and 1000")]),
            "size {bad}"
        );
    }
    assert_eq!(
        problems(validate::shellnums(&ShellnumsRequest { size: None })),
        expect(&[("size", "required")])
    );
}

#[test]
fn claim_validation() {
    let valid = ClaimRequest {
        identity: Some("13800138000".into()),
        activity_label: Some("spring-2024".into()),
        source: Some("shop.example.com".into()),
        branch: Some("HZ".into()),
        ext_params: None,
    };
    assert_eq!(validate::claim(&valid), []);

    for ok in [
        json!({"mode": "sync"}),
        json!({}),
        json!(null),
        json!(r#"{"mode":"sync"}"#),
        json!("[1, 2]"),
        json!(""),
        json!("   "),
    ] {
        let r = ClaimRequest {
            ext_params: Some(ok.clone()),
            ..valid.clone()
        };
        assert_eq!(validate::claim(&r), [], "extParams {ok}");
    }
    for bad in [
        json!("not json"),
        json!("{\"mode\":"),
        json!(5),
        json!(true),
        json!([1, 2]),
    ] {
        let r = ClaimRequest {
            ext_params: Some(bad.clone()),
            ..valid.clone()
        };
        assert_eq!(
            problems(validate::claim(&r)),
            expect(&[("extParams", "must be an object or a string holding JSON")]),
            "extParams {bad}"
        );
    }

    assert_eq!(
        problems(validate::claim(&ClaimRequest::default())),
        expect(&[
            ("identity", "required"),
            ("activityLabel", "required"),
            ("source", "required"),
            ("branch", "required"),
        ])
    );
    let long_label = ClaimRequest {
        activity_label: Some("l".repeat(129)),
        ..valid
    };
    assert_eq!(
        problems(validate::claim(&long_label)),
        expect(&[("activityLabel", "at most 128 characters")])
    );
}

#[test]
fn mobile_numbers() {
    for ok in ["13800138000", "19999999999", "10000000000"] {
        assert!(validate::is_mobile(ok), "{ok}");
    }
    for bad in [
        "",
        "1380013800",
        "138001380000",
        "23800138000",
        "1380013800a",
        "+8613800138",
        " 3800138000",
        "1380013800 ",
        "１３８００１３８０００",
    ] {
        assert!(!validate::is_mobile(bad), "{bad:?}");
    }
}

#[test]
fn email_addresses() {
    for ok in ["a@b.cn", "zhang.san@example.com", "x+y@mail.example.co"] {
        assert!(validate::is_email(ok), "{ok}");
    }
    for bad in [
        "", "plain", "a@b", "@b.cn", "a@@b.cn", "a@b@c.cn", "a@.cn", "a@b.cn.", "a b@c.cn",
        "a@b.c n", "a@b.cn\n",
    ] {
        assert!(!validate::is_email(bad), "{bad:?}");
    }
}

#[test]
fn time_expressions_are_years_months_days() {
    for ok in ["1-0-0", "0-6-0", "0-0-30", "10-11-12"] {
        assert!(validate::is_duration(ok), "{ok}");
    }
    for bad in ["1年", "1", "1-0", "1-0-0-0", "-1-0", "a-b-c", "1 -0-0", ""] {
        assert!(!validate::is_duration(bad), "{bad:?}");
    }
}

#[test]
fn mobile_numbers_as_people_paste_them() {
    for (pasted, mobile) in [
        ("13800138000", Some("13800138000")),
        ("+86 138 0013 8000", Some("13800138000")),
        ("0086-138-0013-8000", Some("13800138000")),
        ("8613800138000", Some("13800138000")),
        ("(138) 0013 8000", Some("13800138000")),
        ("138 0013 800", None),
        ("+1 138 0013 8000", None),
        ("8900000001", None),
    ] {
        assert_eq!(
            validate::mobile_from(pasted).as_deref(),
            mobile,
            "{pasted:?}"
        );
    }
}

#[test]
fn asset_number_problems() {
    let problem = |s: &str| validate::asset_num_problem(s).map(|k| k.to_string());
    assert_eq!(problem("8000000001"), None);
    assert_eq!(problem(&"8".repeat(64)), None);
    assert_eq!(problem(""), Some("must not be blank".to_owned()));
    assert_eq!(problem(" \t"), Some("must not be blank".to_owned()));
    assert_eq!(
        problem(&"8".repeat(65)),
        Some("at most 64 characters".to_owned())
    );
    assert_eq!(
        problem("8000\u{7}0001"),
        Some("must not contain spaces or control characters".to_owned())
    );
}
