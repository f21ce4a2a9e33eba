# License Desk, English: every label of the console. The same message ids are in
# zh-CN/license_desk.ftl (a test checks it); the code names them with `t!` (no arguments),
# `tr!` (arguments) or `label!` (kept to be said later), which check ids at compile time.

# A label and its value, and words with a note: the punctuation is the language's.
labelled = { $label }: { $value }
noted = { $words } ({ $note })

app-name = License Desk
customers = Customers
orders = Orders
assets = Assets
activities = Activities
asset-numbers = Asset numbers
history = History
settings = Settings
profile = Profile
production = PRODUCTION
sandbox = Sandbox
keyring-checking = Keyring: checking…
keyring-ok = Keyring
keyring-secret-service = Secret Service
keyring-keyutils = kernel keyutils (kept until logout)
keyring-windows = Windows Credential Manager
keyring-macos = macOS Keychain
keyring-given = given store
keyring-memory = No keyring: secrets kept for this session only
sandbox-starting = Sandbox starting…
sandbox-ready = Sandbox ready
sandbox-failed = Sandbox failed
ready = Ready
language = Language
theme = Theme
dark = Dark
light = Light
theme-system = As the system
refresh = Refresh
operation = Operation
code = Code
code-filter = Filter by code
all-operations = All operations
export-csv = Export CSV
export-to = Export to
time = Time
http = HTTP
duration-ms = ms
attempt = Attempt
request = Request
response = Response
no-entries = No calls recorded yet.
exported = Exported
failed = failed
loading = Loading…
export-results = Export results
status-code = Status
status-words = Meaning
on-profile = On the profile { $profile }
assets-start = Enter an enterprise global id and list its assets (the Sandbox's demo enterprise is EG0000000001).
assets-start-remote = Enter an enterprise global id and list its assets (a customer's page, or Customers › Query, gives it).
do-disable = Disable { $n } { $n ->
        [one] lock
       *[other] locks
    }
do-enable = Enable { $n } { $n ->
        [one] lock
       *[other] locks
    }
disable-listed = Disable these
enable-listed = Enable these
action = Action
activate-separately = to be activated separately
activation = Activation
active-now = active now
activity-label = Activity label
all-fields-required = All four fields are required.
asset-number = Asset number
asset-numbers-help = New asset numbers from the platform: never handed out twice, also across restarts.
assets-shown = { $n } of { $total } assets
close-listing = Close the listing
exporting = Exporting: { $percent } %
export-cancelling = Cancelling the export…
assignment = Assignment
awaiting-activation = awaiting activation
branch = Branch
chip4 = 4th generation
chip5 = 5th generation
chip = Chip
claim-help = Claims an activity's products for a participant: a mobile number, an e-mail address, an enterprise global id or a lock's asset number.
claim = Claim
clear-selection = Clear selection
columns = Columns
confirm-disable = Disable { $n } { $n ->
        [one] lock
       *[other] locks
    }?
confirm-enable = Enable { $n } { $n ->
        [one] lock
       *[other] locks
    }?
copy-all = Copy all
copy-results = Copy results
created2 = Created
disable-results = Disable: { $ok } of { $n } succeeded
disable-results-all = Disable: { $ok } of { $n } succeeded
disable-selected = Disable selected
disable = Disable
disabled = disabled
enable-results = Enable: { $ok } of { $n } succeeded
enable-results-all = Enable: { $ok } of { $n } succeeded
enable-selected = Enable selected
enable = Enable
extend-code = Extension code
extension = extension
extensions-col = Extensions
filter-hint = number, type, customer, extension
filter = Filter
frozen = frozen
identity-hint = mobile, e-mail, EG… or lock number
identity = Identity
kind-email = an e-mail address
kind-enterprise = an enterprise global id
kind-lock = a lock's asset number
kind-mobile = a mobile number
kind-unknown = not a mobile number, e-mail, enterprise or lock number
license-type-col = License type
list-assets = List assets
listing-dropped = The listing from the profile { $profile } was closed: another profile is active now.
lock-by-numbers = Disable or enable by numbers…
lock-numbers-help = Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons
lock-unlock = Disable or enable
member = member
no-assets = No assets: the enterprise has none, or none with that extension code.
none-yet = none yet
numbers-count = { $n } { $n ->
        [one] number
       *[other] numbers
    }
operator-is = Operator: { $operator } (set in the profile)
platform-says = Platform's code and message
products-col = Products
reason = Reason
recent = Recent
region-domestic = domestic
region-other = other
region-singapore = Singapore
region = Region
result0000 = Claimed: the products below were granted.
result1001 = A field is missing or wrong, or the request was sent twice.
result1002 = The platform failed; nothing was claimed. Try again later.
result1004 = The identity is not a mobile number, e-mail address, known enterprise or known lock.
result2001 = This source or branch may not take part in the activity.
result3001 = There is no activity with this label.
result3002 = Nothing could be claimed: each unit's reason is below.
result-other = Refused by the platform.
select-all-filtered = Select all shown
selected-count = { $n } selected ({ $locks ->
        [one] 1 lock
       *[other] { $locks } locks
    })
send-to-composer = Send to the order composer
sort-hint = click to sort
source = Source
state = State
status-failed = failed
status-not-found = no such lock
status-success = success
status-wrong-type = wrong lock type
undo-disable = This can be undone: enabling them again gives them back to their users.
undo-enable = This can be undone: Disable takes the locks away again.
unit14001 = the unit has not started yet
unit14002 = the unit has ended
unit14003 = this kind of identity may not claim it
unit14004 = no stock left
unit14005 = this identity has claimed it as often as allowed
unit = Unit
updated-col = Updated
valid-from = Valid from
valid-until = Valid until
validity = Validity
asset-numbers-hint = one per line, or paste a column
extensions-hint = code=value, one per line
load-drafts = Load drafts
check-batch = Check the batch
export-copying = Taking the batch
export-writing = Writing the file
export-progress = Exporting: { $stage }
open-draft = Open draft
save-draft = Save draft
rename-draft = Rename draft
delete-draft = Delete draft
browse = Browse…
import-file = Import
export-file = Export
save-as = Save as…
get-asset-numbers = Get new asset numbers
submit-batch = Submit batch
draft = Draft
draft-name = Name
new-draft = New
template-new-purchase = New purchase
template-delete-assets = Delete assets
template-delete-products = Delete products
order-file = File
file-hint = a JSON or spreadsheet file, or drop one here
loading-file = Loading
draft-untouched = The draft was not changed.
undo = Undo
redo = Redo
nothing-written = Nothing was written: a file already there is as it was.
draft-unreadable = This draft cannot be read: it is open read-only and is never saved over.
draft-unreadable-reason = Line { $line }, column { $column }: { $what }
draft-unreadable-kept = What is stored ({ $bytes ->
    [one] { $bytes } byte
   *[other] { $bytes } bytes
}) is kept as it is. Export it as is to repair it in an editor, then import the file.
export-as-is = Export as is
add-order = Add order
add-asset = Add asset
add-product = Add product
add-package = Add package
add-feature = Add feature
add-sub-package = Add sub-package
duplicate = Duplicate
move-up = Move up
move-down = Move down
remove = Remove
new-batch-id = New channel order id
how-many = How many
no-problems = No problems: ready to submit.
problems-count = { $n ->
        [one] One problem to fix before submitting; click it to go to its field.
       *[other] { $n } problems to fix before submitting; click one to go to its field.
    }
more-problems = … and { $n } more
more-orders = … and { $n } more orders
submitted-new = Submitted to { $profile }: the platform recorded { $n } license { $n ->
        [one] order
       *[other] orders
    }.
submitted-again = Already submitted to { $profile } with this channel order id: the platform answered with the first result and created nothing new ({ $n } { $n ->
        [one] order
       *[other] orders
    }).
submitted-again-unrecognised = Sent again to { $profile } with the same channel order id ({ $n } { $n ->
        [one] order
       *[other] orders
    } in the answer). That platform is not declared to recognise a repeat: check that nothing was granted twice.
sequence = Sequence
license-order-id = License order id
confirm-submit = Submit this batch to { $profile }?
summary-orders = { $n } { $n ->
        [one] order
       *[other] orders
    }: { $new } new { $new ->
        [one] purchase
       *[other] purchases
    }, { $assets } { $assets ->
        [one] asset deletion
       *[other] asset deletions
    }, { $products } { $products ->
        [one] product deletion
       *[other] product deletions
    }.
summary-counts = { $assets } asset { $assets ->
        [one] number
       *[other] numbers
    }, { $packages } { $packages ->
        [one] package
       *[other] packages
    }, { $products } { $products ->
        [one] product
       *[other] products
    }.
removes-assets = Order #{ $seq } removes the assets { $assets } and all their products.
removes-products = Order #{ $seq } removes { $np ->
    [one] the product
   *[other] the products
} { $products } from { $na ->
    [one] the asset
   *[other] the assets
} { $assets }.
deletes-final = Deletions cannot be undone: a new purchase would have to grant them again.
preview-deletes = Delete preview
preview-working = Working out what the deletes remove, from the profile's asset listings…
preview-failed = What the deletes remove could not be worked out: { $reason }
preview-unknown-ack = Send without knowing exactly what is removed
preview-refused-send-off = Send is off: the platform would refuse this batch as it is (see above). Close this, change the draft and submit again.
sandbox-activities = The Sandbox's activities
asset-delete-numbers-only = A delete of assets removes them whole, with all their products: only their numbers are read.
preview-counts = As the assets are listed now, this removes { $products ->
    [one] 1 product instance
   *[other] { $products } product instances
} and { $assets ->
    [one] 1 whole asset
   *[other] { $assets } whole assets
}, a line below each (a product an asset holds twice, in a package and outside it, is counted twice).
preview-counts-partial = As the assets are listed now, this removes at least { $products ->
    [one] 1 product instance
   *[other] { $products } product instances
} and { $assets ->
    [one] 1 whole asset
   *[other] { $assets } whole assets
}; what the orders marked below remove is unknown.
preview-counts-none = As the assets are listed now, this removes nothing.
preview-counts-unknown = What this batch removes is not known (see below).
warn-removes-nothing = Order #{ $seq } removes nothing: none of its assets holds what it names. Check its asset numbers and products against the customer's page, or remove the order.
warn-all-orders = Order #{ $seq } names no original license order: it removes from every order of the customer.
warn-loose-match = Order #{ $seq }: { $product } is matched by its mnemonic alone and catches { $count } instances on { $asset }.
warn-asset-not-listed = Order #{ $seq }: the asset { $asset } is not in the enterprise's listing; the platform refuses the batch if the customer does not hold it.
warn-refused = Order #{ $seq }: the platform would refuse the whole batch here ({ $path }: { $message }) and remove nothing.
warn-unknown-enterprise = Order #{ $seq } names no enterprise, and the directory does not know its customer's: what it removes is unknown. Bind the customer to an enterprise on Customers › Bind customer, or put the enterprise's global id in the order, and preview again.
warn-listing-failed = Order #{ $seq }: the assets of { $enterprise } could not be listed ({ $reason }): what it removes is unknown.
warn-products-not-listed = Order #{ $seq }: the platform lists no products with its assets, so which products go is unknown.
preview-col-order = Order
preview-col-asset = Asset
preview-col-product = Product
preview-col-validity = Validity
preview-col-nodes = Nodes
preview-col-source = Granted by
preview-whole-asset = the whole asset
preview-more-rows = … and { $n } more.
already-waiting = This draft already waits for approval on { $profile } as { $request } (channel order id { $id }): sent again, it answers the same request and files nothing new.
repeat-warning = This draft was already submitted to { $profile } with { $id } ({ $state }): that platform answers with the first result and creates nothing. Use a new channel order id for a new batch.
repeat-risk = This draft was already sent to { $profile } with { $id } ({ $state }). { $profile } is not declared to recognise a repeated channel order id: sent again, every license of the batch may be granted twice. Check what the platform holds first, or use a new channel order id.
sent-elsewhere = Sent before with this channel order id to { $profiles }; not yet to { $profile }.
profile-not-recorded = a profile not recorded
unknown-batch = Sent to { $profile }, outcome unknown: the platform may have applied { $n ->
        [one] this license order
       *[other] these { $n } license orders
    }.
evidence-counts = As the batch asked: { $asked } · not so: { $not } · cannot tell: { $unreadable }
check-sent = Check
mark-done = Mark as done
mark-not-done = Mark as not done
send-again = Send again
marked-done = Marked as done: recorded in History.
marked-not-done = Marked as not done: recorded in History. Sending it again is a first send.
evidence-listed = listed
evidence-not-listed = not listed
evidence-unreadable = cannot tell
send = Send
send-for-approval = Send for approval
held-beforehand = { $profile } will keep this batch for a second person's approval: nothing reaches the platform until then (every delete waits, and so does a batch above the team server's threshold).
held-approvers = Who can approve it: { $names }.
holder-filled = Platform customer id { $id }: the customer holding this enterprise's assets, as its asset listing says.
holder-several = Several customers hold this enterprise's assets ({ $ids }): enter the one this order is for as the platform customer id.
holder-none = The platform has named no customer of this enterprise yet (it holds no asset): bind a channel customer to it under Customers, or enter the platform customer id.
operator-is-person = Operator: { $operator } (the team server records the person signed in)
held-beforehand-locks = { $profile } will keep this change of { $n ->
    [one] 1 lock
   *[other] { $n } locks
} for a second person's approval: nothing reaches the platform until then (a change of more locks than the team server's threshold waits).
held-no-approver = Nobody on this team server can approve your requests yet: ask an administrator to give someone of your branch the approve permission.
delete-draft-question = Delete the draft { $name }?
cannot-undo = This cannot be undone.
confirm-delete-draft = Delete
expand-collapse = expand or collapse
batch = Batch
product = Product
feature = Feature
package = Package
asset = Asset
not-a-number = must be a whole number
not-set = not set
explain-file = The file could not be read, written or understood; the place is given below. Nothing was changed.
active = active
in-use = In use
channel = Channel
channel-customer = Customer in channel
enterprise = Enterprise
kind-production = Production
production-platform = Production platform
operator = Operator
platform-address = Platform address
add-profile = Add profile
address = Address
all-customers = All customers
app-key = App key
app-secret = App secret
at-most-chars = at most { $n } characters
base-url = Base URL
bind-customer = Bind customer
bind-help = Binds a channel's customer to the enterprise master account with that exact name; if there is none, one is created and the customer becomes its default customer.
bind = Bind
bound = Bound:
branch-name = Branch name
built-in = built in
cancel = Cancel
channel-code = Channel code
channel-customer-id = Channel customer id
confirm-remove = Remove
connected-with = { $profile }: connected. Scopes: { $scope }; the token is valid for { $hours } h more.
create-enterprise = Create enterprise
create-help = Creates an enterprise master account for a CRM customer, with its default customer and its members.
create-same-name = The directory already holds an enterprise named { $name } ({ $id }): a second one of the same name is one staff cannot tell apart. Update that one (the Update tab), or give this one a name of its own.
create = Create
created = Created:
crm-customer-id = CRM customer id
customer-id = Customer id
customer-name = Customer name
customers-found = { $n } { $n ->
        [one] customer
       *[other] customers
    }
default-only = Default customer only
default-type = Default customer created
dismiss = Dismiss
done = done
edit-profile = Edit profile
edit-this-enterprise = Edit this enterprise
enterprise-global-id = Enterprise global id
enterprise-name = Enterprise name
explain-forbidden = This app is not allowed to do this (its scopes do not cover it). Ask the platform's administrator for the scope.
explain-invalid = The platform refused the request: a field is missing, malformed, or conflicts with existing data. Correct it and send again; what you typed is kept.
explain-no-secret = No app secret is stored for this profile. Enter it in Settings.
explain-not-found = The platform does not know this address. Check the profile's base URL in Settings.
explain-platform-failed = The platform failed internally; nothing was changed. Try again later.
explain-profile = The profile cannot be used or saved as it is. Check it in Settings.
explain-refused = The platform refused the request.
explain-sandbox = The built-in Sandbox platform is not available.
explain-desktop = The desktop shows no notifications here; the count beside Approvals still says what waits.
explain-update = Nothing was installed. Ask the team server's administrator before you go on: an update runs only when it is signed with the key this console trusts.
explain-stopped = License Desk is shutting down.
explain-customer = The directory does not place this customer: check the id or the name, or add the customer to the directory (Catalog).
explain-storage = A local file could not be read or written.
explain-broken = The connection to the platform broke before its answer came. Try again.
explain-outcome-unknown = Sent, outcome unknown: the request may have reached the platform and no answer came back. Check what the platform holds before sending it again; History lists the call.
explain-refused-in-answer = The platform answered, and refused some or all of it: see each item's status.
explain-no-answer-unrecorded = No answer came back. This entry was written before License Desk recorded why.
refused-in-answer = Refused in the answer
write-state = State
write-state-in_flight = Being sent
write-state-done = Done
write-state-refused = Refused
write-state-not_sent = Not sent
write-state-unknown = Outcome unknown
write-state-held = Waiting for approval
history-attempt = Attempt { $n } · HTTP { $http }
explain-cancelled = Cancelled before the platform answered. A write that had left may still have been applied: History says which.
cancel-call = Cancel call
in-flight = { $operation } on { $profile }…
locks-unknown-disable = Sent to { $profile }, outcome unknown: the platform may have disabled { $n ->
        [one] this lock
       *[other] these { $n } locks
    }.
locks-unknown-enable = Sent to { $profile }, outcome unknown: the platform may have enabled { $n ->
        [one] this lock
       *[other] these { $n } locks
    }.
locks-read-after = As the platform lists them now: { $disabled } disabled, { $enabled } enabled, { $missing } not listed. The grid shows this state.
reading-state = Reading their state from the platform…
list-again-to-read = List their enterprise on that profile to read their state.
send-later = Send later
send-now = Send now
load-queue = Load the queue
queue-help = Each call goes to its own profile, in order, at most once; tried again every half minute while the window is open. A profile's calls stop at an unknown outcome until you remove it (check History first).
queue-empty = Nothing waits. When a platform cannot be reached, a batch or a lock change can be kept here from its screen.
queued-batch = { $op }: { $n } { $n ->
        [one] order
       *[other] orders
    }, { $id }
queued-items = { $op }: { $n } { $n ->
        [one] lock
       *[other] locks
    }
queue-state-waiting = Waiting
queue-state-sending = Being sent
queue-state-done = Done
queue-state-refused = Refused
queue-state-unknown = Outcome unknown
queue-state-held = Handed over for approval
kept-to-send-later = Kept to send later: it is sent when the platform answers again (Send later).
unsent-call = { $profile } could not be reached: nothing was sent.
unsent-by-team = The team server of { $profile } could not send it to the platform: nothing was sent.
queue-badge = Send later ({ $n })
approvals-badge = Approvals ({ $n })
keep-to-send-later = Keep to send later
explain-timeout = The platform did not answer in time. The call may have been applied: check History before sending it again.
explain-unauthorized = The platform did not accept the credentials. Check the profile's app key and secret in Settings.
explain-unexpected = The platform answered in a form License Desk does not understand.
explain-unreachable = The platform could not be reached: nothing was sent. Check the network and the profile's address.
explain-team-unreachable = The team server could not be reached: nothing was sent. Check the network and the team profile's address, or ask your administrator whether the team server is running.
field-required = required
is-default = Default
kind-remote = Remote
kind-sandbox = Embedded
kind = Kind
load-history = Load history
member-global-id = Member global id
member-identity = Member identity
members = Members
no-customers = No customers found: the customer is not bound to an enterprise.
no = no
not-mobile = must be a mobile number: 1 followed by 10 digits
operator-identity = Operator identity
password-mobile = Buyer's mobile
production-help = shown in red in the top bar
profile-name = Name
profiles-help = Each profile is a platform: the built-in Sandbox or a remote one. App secrets are kept in the OS keyring, never in a file.
profiles = Profiles
query-customers = Query customers
query-help = Shows the default customer, or all the customers, of the enterprise that a channel's customer is bound to.
query = Query
remove-profile-question = Remove the profile { $name }?
remove-profile-warning = Its app secret and token are deleted from the keyring. This cannot be undone: to use the platform again, add the profile again with its secret.
remove-profile = Remove profile
required-mark = required
save-profile = Save profile
save = Save
secret-keep-hint = leave empty to keep the stored secret
select-profile = Select a profile to use, edit, test or remove it.
show-enterprise-customers = Show this enterprise's customers
show = Show
test-connection = Test connection
token-url = Token URL
update-enterprise = Update enterprise
update-help = Changes the name and address of the enterprise master account of a CRM customer, and of its customers.
update = Update
updated = Updated.
use-profile = Use this profile
yes = yes

# The order fields, by their name in the interface (the composer's labels).
field-channelCode = Channel code
field-channelOrderId = Channel order id
field-syncMode = Processing
field-sequence = Sequence
field-orderType = Order type
field-licenseType = License type
field-customerId = Platform customer id
field-crmCustomerId = CRM customer id
field-customerName = Customer name
field-channelCustomerId = Channel customer id
field-adminName = Administrator name
field-adminAccount = Administrator account
field-adminEmail = Administrator e-mail
field-adminCellNumber = Administrator mobile
field-passwordMobile = Buyer's mobile
field-address = Address
field-customerType = Customer type
field-branchCode = Branch code
field-branchName = Branch name
field-enterpriseGlobalId = Enterprise global id
field-srcLicenseOrderId = Original license order
field-assetNos = Asset numbers
field-assetExtendList = Extensions
field-limitStartDate = Valid from
field-limitEndDate = Valid until
field-borrowedUsbKey = Lent lock
field-transferedAssetNum = Transferred asset number
field-crmProductId = CRM product instance
field-parentCrmProductId = Parent CRM instance
field-productUri = Product id (GMS product id or app product key)
field-productName = Product name
field-gmsPid = GMS product id
field-appKey = App product key
field-productType = Product type
field-limitConcurrent = Concurrent nodes
field-limitTimeDuration = Usage duration
field-strictMatchWhenDelete = Delete only exact matches
field-trial = Trial
field-trialEndDate = Trial ends
field-passwords = Passwords (one per line)
field-timeUnit = Time unit
field-timeUnitQuantity = Number of units
field-timeDurationExpression = Duration (y-m-d)
field-featureCode = Feature code
field-featureName = Feature name
field-featureValue = Feature value
field-featureValueType = Value type
field-merchandiseNum = Package number
field-merchandiseName = Package name
field-parentMerchandiseNum = Parent package number
field-orderList = Orders
field-assets = Assets
field-products = Products
field-merchandises = Packages
field-children = Sub-packages

# The interface's enumerations in words (the code follows in brackets).
order-type-new_buy = New purchase
order-type-delete_asset = Delete assets
order-type-delete_product = Delete products
license-short-normal_unrecover_usbkey = not re-issuable lock
license-short-normal_recover_usbkey = re-issuable lock
license-short-normal_unrecover_lan_usbkey = not re-issuable network lock
license-short-normal_recover_lan_usbkey = re-issuable network lock
license-type-normal_unrecover_usbkey = stand-alone lock, not re-issuable
license-type-normal_recover_usbkey = stand-alone lock, re-issuable
license-type-normal_unrecover_lan_usbkey = network lock, not re-issuable
license-type-normal_recover_lan_usbkey = network lock, re-issuable
license-type-identity_usbkey = stand-alone identity lock
license-type-identity_lan_usbkey = network identity lock
license-type-softkey = stand-alone certificate
license-type-lan_softkey = network certificate
license-type-product_entity = product entity
license-type-cloud_account = cloud account
license-type-cloud_customer = enterprise cloud account license
license-type-cloud_personal = personal cloud account license
license-type-lk_product_usbkey = product lock
license-type-lk_auth_usbkey = login lock
customer-type-personal = Personal
customer-type-company = Company
sync-mode-sync = synchronous: done by the time it answers
sync-mode-async = in the background: it answers on receipt
answered-on-other-profile = From the profile { $profile }: the active profile is now { $active }.

# The date field.
date-today = Today
date-previous-month = Previous month
date-next-month = Next month
date-weekdays = Mo Tu We Th Fr Sa Su
date-month-title = { $month ->
        [1] January
        [2] February
        [3] March
        [4] April
        [5] May
        [6] June
        [7] July
        [8] August
        [9] September
        [10] October
        [11] November
       *[12] December
    } { $year }

## Problems the shared validation finds, under their field
order = Order
problem-at = { $path }: { $problem }
unknown-key = { $at }: not a field of the interface; kept and sent as is.
more-unknown-keys = … and { $n } more keys that are not fields of the interface.
problem-on-line = { $problem }, line { $line }
problem-required-for = required in a { $op } order
problem-customer-id = required when the channel customer id is empty
problem-source-order = required: a { $op } order of the cloud license type { $license } names the order it changes
problem-blank = must not be blank
problem-spaces = must not contain spaces or control characters
problem-controls = must not contain control characters (such as NUL or ESC)
problem-not-email = must be an e-mail address
problem-url-credentials = an address with a user name or password (user:pass@) is refused: the app secret goes in its own field
problem-not-url = an http:// or https:// address is required
problem-negative = must not be negative
problem-not-flag = must be 0 or 1
problem-end-before-start = must not be before the start date
problem-at-least-one = { $item ->
        [order] at least one order
        [asset] at least one asset
       *[asset-number] at least one asset number
    } required
problem-too-many = at most { $n } { $item ->
        [order] orders per batch
        [asset] assets
       *[asset-number] asset numbers per call
    }
problem-out-of-range = must be between { $min } and { $max }
problem-sequence-taken = { $sequence } is already the sequence of order { $order }
problem-asset-number-repeated = { $number } is already on line { $line }
problem-nothing-bought = a new purchase needs at least one product or package
problem-delete-asset-products = must be empty: deleting an asset removes it whole (a "Delete products" order removes products)
problem-delete-asset-merchandise = must be empty when deleting assets
problem-no-product-to-delete = name at least one product to delete
problem-merchandise-in-delete-product = must be empty: a "Delete products" order names the products themselves
problem-too-deep = packages nest at most { $max } levels deep
problem-over-limit = { $limit ->
        [batch-asset-numbers] { $count } asset numbers in the batch; at most { $max } per batch: split it into several batches
        [batch-grants] { $count } products granted or removed in all (asset numbers × products); at most { $max } per batch: split it into several batches
        [asset-products] { $count } products on this asset, packages included; at most { $max }
       *[asset-packages] { $count } packages on this asset; at most { $max }
    }
problem-not-json = must be an object or a string holding JSON

## The status bar
refused = refused
refused-code = refused ({ $code })
partly-done = { $done } of { $of } done

## Disabling or enabling the selected rows
nothing-to-disable = Nothing to disable
nothing-to-enable = Nothing to enable
skipped-not-locks = { $n ->
        [one] 1 asset is left out: it cannot be disabled or enabled
       *[other] { $n } assets are left out: they cannot be disabled or enabled
    } ({ $types }). Only re-issuable locks, and locks ordered with a validity window, can.
skipped-already-disabled = { $n ->
        [one] 1 lock is left out: it is disabled already.
       *[other] { $n } locks are left out: they are disabled already.
    }
skipped-already-enabled = { $n ->
        [one] 1 lock is left out: it is enabled already.
       *[other] { $n } locks are left out: they are enabled already.
    }
operator-needed = Required: the platform records who disabled or enabled each lock. Set a default in Settings.
plain-http = PLAIN HTTP
production-without-tls = Plain http:// to another machine: the app secret, the token and every answer would cross the network unencrypted. Use https://; such a profile sends nothing unless plain HTTP is allowed below.

## History
failures-only = Failures only
call-ok = OK
no-answer = no answer
operation-token = Token
operation-bind = Bind customer
operation-create_enterprise = Create enterprise
operation-query_customers = Query customers
operation-update_enterprise = Update enterprise
operation-batch_order = Batch order
operation-lock = Disable locks
operation-unlock = Enable locks
operation-assets = List assets
operation-shellnums = New asset numbers
operation-claim = Claim
kind-short-mobile = a mobile number with digits missing (a mobile number has 11)
switch-profile = Switch…

## Values of the platform's open enumerations
member-gxxp-admin = industrial-information administrator
member-cloud-staff = cloud staff
assign-unassigned = not assigned
assign-assigned = assigned

## Refusals the console recognises
refusal-enterprise-exists = This CRM customer already has an enterprise master account ({ $id }). To change its name or address, use Customers › Update enterprise.
refusal-no-enterprise = The platform has no enterprise master account { $id }. Check the global id, or the profile: each platform has its own enterprises.
refusal-no-enterprise-for-customer = The CRM customer { $id } has no enterprise master account on this platform yet: create one first (Customers › Create enterprise).
refusal-asset-elsewhere = Asset { $num } belongs to another customer. A new purchase moves it to this order's customer when “Transferred asset number” is ticked on the asset; a delete must name the customer that holds it (the asset's customer page shows which).
refusal-no-product = Asset { $num } holds no product { $uri } from that license order: nothing to delete. Check the product and the source license order.
refusal-no-asset = The platform has no asset { $num }. Check the number, or the profile.
refusal-no-order = The platform has no license order { $id } for this customer. Check the source license order id.
refusal-asset-of = Asset { $num } belongs to the customer { $owner }, not to this order's customer { $customer }: name { $owner } as the order's “Platform customer id”, or remove the asset from the order.
refusal-asset-new-customer = Asset { $num } belongs to the customer { $owner }; the platform knows no customer by this order's channel customer id and would make a new one, which does not hold it.
refusal-removed-earlier = Asset { $num } is already removed by an earlier order of this batch.
refusal-nothing-from-source = Asset { $num } holds nothing from the source license order.
refusal-nonce = The call was refused as a replay (its g_nonce was used before). Send it again: each attempt gets a fresh nonce.
go-to-field = Go to the field
verbatim-caption = Word for word, as answered:
file-not-found = There is no file at { $path }: check its name and its folder, or choose it with Browse….
file-no-permission = { $path } may not be read by you: ask whoever owns it, or copy it somewhere of yours.
file-not-a-batch = { $path } cannot be read as a batch order at line { $line }, column { $column }: mend it there and import it again.
file-not-regular = { $path } is a folder or a device, not a file: choose the file itself.
open-update-enterprise = Open Update enterprise

## The start page
start = Start
start-working-on = You are working on: { $profile }
start-sandbox-help = The Sandbox is a licensing platform built into License Desk, with demo data. Nothing done here reaches a real platform: try anything.
start-production-help = A production platform: every action changes real licenses.
start-remote-help = Calls go to this remote platform. Test the connection in Settings; switch profile from the top bar.
start-other-profiles = Profiles and connections…
start-demo-title = What the Sandbox holds, and what to try first
start-demo-customer = The channel customer { $channel } / { $customer }, bound to the enterprise { $enterprise }.
start-demo-assets = The enterprise's assets ({ $id }): locks { $first } to { $last }, a certificate and a cloud account. Disable a lock, then enable it again.
start-demo-order = A new purchase, ready in the order composer: give it asset numbers and submit it.
start-demo-activity = The activity { $label }: claim its products for the mobile number { $mobile }.
start-query-it = Query it
start-list-them = List them
start-compose = Compose
start-claim = Fill in the claim
keyring-memory-help = This machine has no keyring (Secret Service, Credential Manager, Keychain): app secrets are kept for this session only and asked again after a restart. The Sandbox needs none.
stale-results = The form has changed since this query: the results below are for what was asked then. Query again to update them.
profile-colon = Profile:
action-failed = { $action }: failed
action-held = { $action }: waiting for approval as { $id }
held-as = waiting for approval as { $id }
open-request = Open { $id }
action-refused = { $action }: refused
action-unknown = { $action }: Outcome unknown
problem-not-a-date = must be a date: year-month-day, as 2027-11-23
problem-not-a-duration = must be years-months-days, as 1-0-0 for one year or 0-6-0 for six months
problem-unknown-value = “{ $value }” is not one of the values the interface lists for this field
problem-near-field = the file has “{ $key }”, which is not a field of the interface, so the platform would ignore it: rename it { $field }
problem-letter-for-digit-meant = has a letter where a digit goes (O for 0, I or l for 1): did you mean { $meant }?
problem-letter-for-digit = has a letter where a digit goes (O for 0, I or l for 1)
problem-lock-digits = a lock's asset number is { $digits } digits; this one has { $count }
problem-wrong-type = { $expected ->
        [text] must be text
        [millis] must be a date in epoch milliseconds (a whole number)
        [yes-no] must be true or false
        [list] must be a list
       *[object] must be an object
    }
hint-timeDurationExpression = years-months-days, as 1-0-0
date-pick = Calendar…
date-short-validity = valid for { $days ->
        [one] 1 day
       *[other] { $days } days
    } only: check the date
date-past = already past: check the date
date-typed = { $field } (year-month-day)
draft-submitted = submitted
listing-of-another = The assets below are those of { $listed }: list again to see the enterprise typed.
window-title = License Desk
unknown-values-count = { $n ->
        [one] One value this console does not know: the platform may accept it; sending asks you first.
       *[other] { $n } values this console does not know: the platform may accept them; sending asks you first.
    }
sandbox-unknown-value = “{ $value }” is not implemented by the Sandbox, which knows only the values the interface lists; choose one, or send this batch to a platform that knows it
remote-unknown-value = “{ $value }” is not a value the interface lists; this platform may know it (you will be asked before it is sent)
confirm-unknown-values = Values this console does not know, sent as they are:
no-os-file-dialog = No file dialog of the system answered (this desktop has no XDG portal with a file chooser and no zenity: install xdg-desktop-portal-gtk, which gives the portal its file chooser, or zenity). Choose the file in the window's own browser, drop it on the window, or type its path.
os-file-dialog-closed-at-once = The system's file dialog closed at once. If you closed it, nothing has changed. If none showed (the XDG portal may have no file chooser: install xdg-desktop-portal-gtk or zenity), choose the file in the window's own browser below, drop it on the window, or type its path.
browser-open-title = Open a batch order file
browser-save-title = Save the batch order as
browser-open = Open
browser-save = Save
browser-file = File:
browser-parent = Up one folder
browser-folder = Folder:
unread-columns = Columns not read (their headers name no column of the order sheet): { $list }
package-parent-unknown = { $cell }: package { $package } names parent package { $parent }, which is no package of its asset; it is kept at the top level of the asset.
package-parent-cycle = { $cell }: package { $package } names parent package { $parent }, whose parents lead back to { $package }; the cycle is cut and kept from the top level of the asset.
sheet-template = Sheet template…
sheet-template-help = Writes an .xlsx template for orders: the sheet Orders with the headers in English and Chinese, the sheet Examples 示例 with an example row per order type, and a sheet that explains each column. Fill in Orders (copy the examples you want to it); Import reads it.
import-reading = Reading the file
import-building = Making orders of the rows
import-saving = Keeping the batch as a draft
# A progress bar's words: the stage, then how much of it is done.
import-progress = { $stage }: { $percent } %
import-cancelled = Import cancelled: no draft was made, and the open one is untouched.
cancelled = cancelled
# Where a problem of an imported file is in that file.
file-line-column = { $file }: line { $line }, column { $column }
file-cell = { $file }: { $cell }

# The catalog and the directory, in the composer.
load-catalog = Load the catalog
pick-product = Add a product from the catalog
pick-package = Add a package from the catalog
catalog-search = Search the catalog
catalog-search-hint = name, id, or pinyin (jjrj)
picked-package = { $name } · { $num } · { $count ->
    [one] 1 product
   *[other] { $count } products
}
empty-product = Add an empty product instead
empty-package = Add an empty package instead
catalog-nothing-yet = The catalog holds none yet: it learns them from every batch imported or accepted, or import a catalog file on the Catalog screen.
catalog-no-match = Nothing in the catalog matches “{ $query }”.
learn-from-listings = Learn from the platform's listings
learn-from-listings-help = Lists the assets of every enterprise of the directory and keeps the products they hold (URI and name) in the catalog; on a team profile, in the team's catalog for everyone. A platform whose listing carries no products teaches nothing.
listings-taught = { $read ->
    [one] 1 listing read
   *[other] { $read } listings read
}: { $products ->
    [one] 1 product named
   *[other] { $products } products named
}, { $new } new in the catalog.
listings-named-none = { $read ->
    [one] 1 listing read
   *[other] { $read } listings read
}: they name no products (this platform's listing may not carry them); import a catalog file instead.
listings-unread = { $n ->
    [one] 1 listing could not be read.
   *[other] { $n } listings could not be read.
}
catalog-empty = The catalog has no products yet, so Add product adds an empty one to fill in by hand. Catalog → Import fills it from a catalog file, or Learn from the platform's listings; every batch sent teaches it too.
catalog-empty-team = The team's catalog has no products yet, so Add product adds an empty one to fill in by hand. An administrator fills it for everyone: Catalog → Import a catalog file, or Learn from the platform's listings; every batch sent through the team server teaches it too.
customer-search = Customer from the directory
customer-search-hint = name, id, or pinyin
import-checking = Checking the values
import-cancelling = Cancelling…
file-row = { $file }: { $sheet }, row { $row }
catalog = Catalog
catalog-products = Products
catalog-packages = Packages
catalog-customers = Customers of { $profile }
catalog-count = { $shown } shown of { $total } found
catalog-file = Catalog file
catalog-import = Import catalog
catalog-export = Export catalog
catalog-import-preview = Importing this file would change:
catalog-import-done = Imported:
catalog-import-products = Products: { $new } new, { $changed } changed, { $unchanged } unchanged
catalog-import-packages = Packages: { $new } new, { $changed } changed, { $unchanged } unchanged
catalog-import-customers = Customers: { $new } new, { $changed } changed, { $unchanged } unchanged
catalog-import-kept = { $kept ->
    [one] One customer keeps what the platform said where the file says otherwise.
   *[other] { $kept } customers keep what the platform said where the file says otherwise.
}
catalog-import-overwrite = Overwrite what the platform said with the file's
catalog-import-apply = Import these changes
catalog-with-customers = with the customers
catalog-remove = Remove
catalog-remove-confirm = Remove “{ $name }” from the catalog?
catalog-remove-undo = It comes back when a batch or a catalog file names it again.
catalog-name = Name
catalog-uri = URI
catalog-pid = GMS product id
catalog-concurrent = Concurrent nodes
catalog-number = Package number
catalog-product-count = Products
catalog-sub-packages = Sub-packages
catalog-channel-customer = Channel customer id
catalog-customer-id = Platform customer id
catalog-enterprise = Enterprise global id
catalog-last-seen = Last seen
catalog-remove-yes = Remove from the catalog
catalog-edit = Edit
catalog-edit-title = Edit the catalog's item
catalog-save = Save
profile-limits = Time limits
limit-connect = Connect (s)
limit-attempt = Each attempt (s)
limit-batch-attempt = Each batch attempt (s)
limit-retries = Retries where safe
profile-repeats = Repeated orders
profile-repeats-check = The platform recognises a repeated channelOrderId
profile-repeats-help = Tick only for a platform known to answer a batch sent twice with its first answer (license-desk serve does). Then a batch whose answer was lost is sent again by itself; on a platform that does not recognise it, that would grant every license twice. Unticked, such a batch is shown as "outcome unknown" for you to check.
profile-insecure-http = Allow plain HTTP to this platform (the app secret and tokens cross the network in clear)
profile-own-catalog = Own catalog (not shared with other profiles)
profile-own-catalog-help = Its products and packages are learned, searched and picked apart from every other profile's; the customers are each profile's own either way.
catalog-own-note = { $profile } keeps a catalog of its own: other profiles do not see these products and packages.
catalog-pick-import = Import from a file…
catalog-pick-export = Export to a file…
catalog-drop-hint = Or drop a catalog file (.json, .xlsx) on this screen to import it.
catalog-browser-open = Open a catalog file
catalog-browser-save = Export the catalog to a file
catalog-package-products = Products of the package
catalog-package-product-name = Name of { $uri }
catalog-package-product-remove = Remove { $uri } from the package
catalog-package-children = { $count ->
    [one] 1 sub-package, kept as it is
   *[other] { $count } sub-packages, kept as they are
}
catalog-package-empty = The package has no product left.
catalog-enterprise-name = Enterprise name
guard-type-name = This is the production profile. Type its name, { $name }, to go on:
profile-ca-file = CA file
profile-ca-file-hint = none: the system's trusted CAs
profile-ca-file-help = The certificate (PEM) of the CA that signed the platform's certificate, trusted besides the system's. The platform's certificate is always verified.
ca-file-browser-title = Choose the CA's certificate (PEM)
explain-untrusted = The platform's certificate is not trusted, so nothing was sent to it. If the platform's certificate was signed by a CA of its own, choose that CA's certificate (PEM) as the profile's CA file in Settings; otherwise check the profile's address.
explain-ca-file = The profile's CA file cannot be used: it cannot be read, or it holds no PEM certificate. Choose the CA's certificate file (PEM) in Settings.

## The team server (docs/team.md): its profile, sign-in, the person and role, disabled actions.
explain-signed-out = Your session with the team server has ended (you signed out, it was idle too long, or an administrator ended it), so nothing was sent. Sign in again: what you were doing is kept.
explain-permission = Your role on the team server does not allow this, so nothing was sent. The permission it needs is named below; ask a team administrator for a role that has it.
explain-other-branch = This customer, enterprise or lock belongs to another branch on the team server, so nothing was sent. Only that branch, or the head office, may act on it; the branch is named below.
explain-team-refused = The team server refused this (its reason is below): nothing reached the platform, and what you did is kept.
explain-team-failed = The team server failed on its side (its reason is below). Try again; if it keeps happening, tell the team server's administrator.
explain-team-not-sent = The team server could not send this to the platform (the platform could not be reached from it, or it could not record the call first): nothing was sent, and what you did is kept. Send it again later; if it keeps happening, tell the team server's administrator.
kind-team = Team server
start-team-help = Calls go through your company's team server, signed in as you: it holds the platform's credentials, checks what your role allows and records every call.
team-url = Team server address
team-user = Your sign-in name
team-password = Password
team-password-help = Asked once: only the session is kept, in the OS keyring, never the password.
team-signed-in = { $person } · { $role }
team-signed-out = Not signed in
team-sign-in = Sign in…
team-sign-out = Sign out
update-available = Version { $version } of License Desk is available
update-notes = What is new
update-no-notes = The company published no notes for it.
update-download = Download
update-downloading = Downloading and checking… { $percent } %
update-downloaded = Downloaded and checked against your company's key: { $path }
update-install-linux = Downloaded and checked against your company's key. Install it with:
update-copy = Copy the command
update-key-changed = Updates are refused: the team server's release key is not the one this console trusts. Ask your IT department.
update-install = Install and restart
update-installing = Installing once the drafts are saved and no call runs; the window then restarts by itself…
update-required = Required by your company
update-installing-now = Installing License Desk… the window restarts by itself.
move-open = Move to another computer…
move-title = Move to another computer
move-help = One file holds your profiles (without passwords or app secrets), drafts, catalog and customer directories, unsent work, history and settings. Save it here, copy it to the new computer, and restore it there.
move-save-section = From this computer
move-save-to = Save to
move-save = Save the move file
move-saved = Saved { $path }: { $parts } parts, { $size }.
move-restore-section = On the new computer
move-restore-from = Move file
move-restore = Check and restore…
move-checked = Checked: { $parts } parts, saved by License Desk { $version } on { $date }. They are restored when License Desk starts again; what is on this computer now is kept beside them.
move-restart = Restart now
move-restored-title = Restored from another computer
move-restored = { $parts } parts were restored.
move-kept-aside = What was here before is kept at:
move-enter-again = Enter again:
move-enter-secret = the app secret of profile { $profile }
move-enter-sign-in = { $user }'s password on profile { $profile }
move-restore-failed = Nothing was restored and nothing changed: { $why }
explain-backup = Nothing on this computer was changed. For a restore, check that the file is the one saved on the other computer, copied whole; for a save, that the folder can be written to and has room.
sign-in-title = Sign in to { $profile }
sign-in-help = Sign in to the team server as { $user } to go on. What you were doing is kept.
sign-in-button = Sign in
team-profile-not-kept = The sign-in was refused, so the profile was not kept: check the name and the password (see the note below the screen), then save again.
needs-permission = Your role ({ $role }) does not have the permission “{ $permission }” that this needs.
role-viewer = viewer
role-staff = branch staff
role-approver = approver
role-admin = administrator
permission-read = read
permission-customers = customers
permission-purchase = purchases
permission-numbers = asset numbers
permission-claim = activity claims
permission-locks = locks
permission-delete = deletes
permission-approve = approvals
permission-users = people and roles
history-team-record = Team server's record
history-this-computer = This computer's calls
record-help = What you did through the team server, as it recorded it (an administrator sees everyone's), newest first.
record-time = Time
record-person = Person
record-operation = Operation
record-outcome = Outcome
record-message = Message
record-request = Request
record-answer = Answer
record-call = Call
record-outcome-done = done
record-outcome-refused = refused
record-outcome-denied = not permitted
record-outcome-invalid = refused by the team server
record-outcome-not_sent = not sent
record-outcome-unknown = outcome unknown
record-outcome-failed = failed
record-outcome-held = waiting for approval
record-outcome-ok = done
record-outcome-begun = being sent
record-outcome-unauthenticated = not signed in
operation-sign_in = Sign in
operation-sign_out = Sign out
operation-approve = Approve
operation-reject = Reject
operation-knowledge-put = Share catalog and customers
operation-request-settled = Request settled
operation-user-add = Add person
operation-user-edit = Change person
operation-user-disable = Disable person
operation-user-enable = Enable person
operation-user-reset_password = Reset password
operation-role-add = Add role
operation-role-remove = Remove role
operation-settings = Change approval rules
operation-init = Set up the team server
operation-audit-retention = Drop old record entries
record-listed = { $n ->
    [one] 1 asset
   *[other] { $n } assets
}
record-shared = shared up to change { $last }
record-sign-in-wrong_name_or_password = wrong name or password
record-sign-in-disabled = the account is disabled
record-sign-in-no_directory = signs in through LDAP, and the server has no directory
record-sign-in-directory = the directory could not be reached
record-sign-in-no_group = the directory account is in no group this server admits
record-sign-in-not_added = the directory account is not on this server
record-sign-in-no_branch = the role needs a branch and none is set
record-sign-in-slowed = too many sign-in attempts: try again in { $seconds } s
record-sign-in-busy = the server was busy checking other sign-ins: try again in { $seconds } s
record-sign-in-other_directory_person = another directory account than this person's
record-fate = { $held } → { $state }
explain-sign-in = The team server did not sign you in; its reason is below (a wrong name or password, an account disabled, or too many attempts: then wait as long as it says and try again). Nothing else was sent.
start-team-next = Your name and role are in the top bar. What your role does not allow is shown greyed out, with the reason when you point at it; History shows the team server's record of your calls.
explain-held = Nothing has reached the platform yet. Another person with the approve permission decides; once approved, the team server sends it once. The decision shows here and under Approvals.
approvals = Approvals
approvals-decide = Decide a request
approvals-help = Deletes, and batches or lock changes above the team server's thresholds, wait here for a second person. Nothing is sent to the platform until another person approves; an approved request is sent once.
approvals-not-team = Approvals belong to a team server: choose or add a team server's profile (Settings) to see its requests.
approvals-pending-only = Waiting only
approvals-none = No requests here.
request-id = Request
request-time = Filed
request-requester = Filed by
request-summary = What it does
request-customer = Customer
request-customers-more = { $first } and { $more ->
    [one] 1 more
   *[other] { $more } more
}
request-state = State
request-state-pending = Waiting for approval
request-state-approved = Approved, being sent
request-state-rejected = Rejected
request-state-done = Approved and done
request-state-refused = Approved; the platform refused it
request-state-unknown = Approved; sent, outcome unknown
request-state-not_sent = Approved; not sent (the team server could not send it), may be approved again
approve = Approve
reject = Reject
reject-reason = Reason
reject-reason-hint = why, for the person who filed it
request-own = This is your own request: another person decides it.
request-preview = What it removes
request-preview-reading = Reading again what it removes now…
request-preview-changed = What the platform holds changed since this request was filed: below is what it removes now.
request-preview-unread = What it removes could not be read again ({ $reason }): below is what it removed when it was filed.
request-body = The call as it will be sent
request-decided-by = Decided by { $who }
batch-held = Kept by the team server of { $profile } as { $id }: nothing has been sent yet. Another person approves it under Approvals, and it is then sent once.
request-notice = Your request { $id } ({ $summary }): { $state }, by { $who }.
request-arrived = { $id } waits for your approval: { $who } · { $summary }.
request-arrived-title = { $id } waits for your approval
request-arrived-many = { $n } new requests wait for your approval
request-arrived-body = { $who } · { $summary }
desktop-notifications = Desktop notifications when a request waits for my approval
request-gist-batch = { $orders } · { $assets ->
    [one] 1 asset number
   *[other] { $assets } asset numbers
}
request-gist-lock = Disable { $assets ->
    [one] 1 lock
   *[other] { $assets } locks
}
request-gist-unlock = Enable { $assets ->
    [one] 1 lock
   *[other] { $assets } locks
}
handed-drafts = Read the drafts handed over
hand-over = Hand over…
open-handed-draft = Open a handed draft
handed-to-me = Handed to me ({ $n })
handed-none = No draft was handed to you.
hand-over-title = Hand this draft over
hand-over-to = To
hand-over-note = Note
hand-over-help = A colleague's sign-in name, or “approvers” for whoever may approve. They receive the draft as it is saved now; it becomes theirs when they open it.
hand-over-send = Hand over

# Renewals (issue 38)
renewals-listing = Listing the enterprises
renewals = Renewals
renewals-help = What ends in the coming days across every enterprise of this profile's directory, read four at a time. Click a bar to see its rows; export for the sales team.
renewals-read = Read the directory
renewals-read-again = Read again
renewals-none = Nothing read yet for this profile. Reading lists the assets of each enterprise of its directory.
renewals-no-directory = This profile's directory names no enterprise yet: add customers in Catalog (or query or create them) and read again.
renewals-read-at = Read from { $profile } at { $at }: { $done } of { $all } enterprises
age-minutes = { $minutes ->
    [0] just now
    [one] 1 minute ago
   *[other] { $minutes } minutes ago
}
age-hours = { $hours ->
    [one] 1 hour ago
   *[other] { $hours } hours ago
}
age-days = { $days ->
    [one] 1 day ago
   *[other] { $days } days ago
}
renewals-stopped = Read until { $at }, then the platform stopped answering: { $why }
renewals-cancelled = Cancelled at { $at }: what was read until then is shown.
renewals-refused = { $n ->
    [one] 1 enterprise was not read
   *[other] { $n } enterprises were not read
}
renewals-refused-one = { $enterprise }: the platform refused: { $code } { $message }
renewals-undated = { $n ->
    [one] 1 asset has no end date known and is never counted.
   *[other] { $n } assets have no end date known and are never counted.
}
renewals-within = Ends within
renewals-days = { $n } days
renewals-search = Search customers, assets and products
renewals-any-type = Any license type
renewals-any-branch = Any branch
renewals-month = Month { $month }
renewals-clear-month = Show the whole window again
renewals-by-type = By license type
renewals-by-branch = By branch
renewals-chart-hidden = The chart is hidden while the window is this short: make the window taller to see it.
renewals-chart = What ends each month, the next 12 months
renewals-chart-name = Chart: what ends each month; click a bar to show that month
renewals-bar = { $month } · { $group }: { $n } of the { $total } ending that month
renewals-other = Other
renewals-no-branch = No branch
renewals-shown = { $shown } of { $all } rows
renewals-empty = Nothing ends in this window. Widen it, or clear the search and filters.
renewals-customer = Customer
renewals-end = End date
renewals-days-left = Days left
renewals-lock = Lock
renewals-locked = disabled
renewals-open = enabled
renewals-source-product = platform's product
renewals-source-asset = asset's own validity
renewals-source-sent = as sent, not read
renewals-export = Export
renewals-export-help = Named .xlsx: a workbook; any other name: CSV (UTF-8 with a byte-order mark).
renewals-reading = Reading { $done } of { $all } enterprises
renewals-find = Find
start-renewals-open = Renewals
start-renewals = { $n ->
    [0] Nothing ends in the next 30 days (read at { $at }).
    [one] 1 product ends in the next 30 days (read at { $at }).
   *[other] { $n } products end in the next 30 days (read at { $at }).
}
start-renewals-none = What ends in the coming days across every customer of the directory: not read yet for this profile.
renewals-choose = Choose { $asset } for a renewal
renewals-open-page = Open the customer's page (customer { $customer })
customers-open-page = Open this enterprise's page
assets-open-page = Customer page
history-open-page = Open the page of { $id }
renewals-choose-shown = Choose all shown
renewals-choose-help = Tick rows (or choose all shown) to compose their renewal.
renewals-chosen = { $n ->
    [one] 1 row chosen
   *[other] { $n } rows chosen
}
renewals-compose = Compose the renewal
renewals-clear-chosen = Clear the choice

# The customer page (issue 38, step 6)
customer-page = Customer page
page-search = Find customer
page-search-hint = Name, initials or id (Ctrl+K)
page-search-none = No customer of the directory fits. Press Enter to look the id up on the platform.
content-mark = Start of the screen (F6)
page-search-no-enterprise = no enterprise yet: opens Customers › Query
page-none = No customer page is open. Find a customer in the top bar (Ctrl+K), or open one from Customers or Renewals.
page-reading = Reading the customer's page…
page-choices = "{ $id }" fits several enterprises of the directory: choose one.
page-no-name = (no name known)
page-read-at = From { $profile }, read at { $at }
page-refresh = Refresh
page-unreachable = The platform did not answer ({ $why }). This is the page as read at { $at }.
page-listing-refused = The platform refused the asset listing: { $code } { $message }
page-customers-refused = The platform refused the customer query: { $code } { $message }
page-ends = Ending within { $days } days: { $n }
page-tab-assets = Assets ({ $n })
page-tab-timeline = Timeline ({ $n })
page-tab-customers = Customers ({ $n })
page-copy = Copy
page-copy-help = Copy { $id } to the clipboard
page-no-assets = The platform lists no asset for this enterprise. A new purchase gives it one.
page-choose = Choose { $asset }
page-locked = Disabled
page-unlocked = Enabled
page-products = { $n ->
    [one] 1 product
   *[other] { $n } products
}
page-no-date = no end date known
page-renewed = { $product }  { $end } (renewed: a later one ends later)
page-the-asset = the asset
page-ends-on = { $product } ends { $end } ({ $n } days left)
page-no-timeline = This console has sent nothing for this enterprise yet.
page-open-history = Journal #{ $n }
page-ev-batch = Batch { $id }: { $kinds }, { $n } assets: { $products }
page-ev-disabled = Disabled { $assets }
page-ev-enabled = Enabled { $assets }
page-ev-claim = Claimed { $activity } for { $identity }
page-ev-customer = { $op }: { $name }
page-customers-not-asked = The directory gives no channel customer id for this enterprise, so its customers were not queried.
page-no-customers = The platform gives no customer for this enterprise.
page-default = Default
page-new-purchase = New purchase
page-renew = Renew ({ $n })
page-renew-help = A new purchase of the chosen assets' products (or, with none chosen, of what ends within the highlighted window), each from where it ends for as long as it lasted. It opens in Orders to check and send.
page-delete = Delete the chosen ({ $n })…
page-delete-help = A delete of the chosen assets. It opens in Orders, where the preview shows what it removes before anything is sent.
page-disable = Disable the chosen ({ $n })…
page-enable = Enable the chosen ({ $n })…
page-locks-help = The chosen locks, in the Assets screen's confirmation (assets that are not locks, or already so, are left out and counted); the results are shown there. Refresh the page afterwards.
page-export = Export (xlsx)
page-team-log = With the team server's log: its latest { $n } entries you may see.
page-team-log-unread = The team server's log could not be read ({ $why }): only this computer's calls are shown.
renewals-unreal = { $n ->
    [one] 1 product has dates that cannot be counted (the end before the start, or past the year 9999): not counted as ending.
   *[other] { $n } products have dates that cannot be counted (the end before the start, or past the year 9999): not counted as ending.
}
page-dates-reversed = the dates are reversed (the end before the start)
page-no-real-end = no real end (past the year 9999)
page-renewed-only = renewed
help-menu = Help
help-this-screen = This screen (F1)
help-contents = The manual's contents
help-shortcuts = Keyboard shortcuts
help-title = License Desk manual
history-raw-json = Raw JSON
template-file-name = order-template.xlsx
keyring-memory-configured = kept in memory only, as this computer's settings ask
problem-path-hover = Where it is in the interface's terms: { $path }
claim-identity-unusable = The identity is not one the platform reads (see beside it): nothing is sent until it is.
source-hint = the system taking part, e.g. crm.example.com
branch-hint = the participant's branch, e.g. 北京分公司
not-lockable-why = A lock that is not re-issuable can be disabled and enabled only when its order carried a validity window; this one has none.
row-open = Open the row of { $asset }
row-close = Close the row of { $asset }
tree-open = Open { $row }
tree-close = Close { $row }
purchase-fields = A new purchase's fields (a delete does not read them)

## Empty states (issue 39): what to do next, with its button.
history-none-match = No call matches the filter: change or clear it.
history-empty = No calls recorded yet. Each call a screen makes to a platform is recorded here, with its answer.
empty-open-start = Open Start
queue-compose = Compose a batch
page-open-customers = Open Customers
assets-list-recent = List { $enterprise }
import-learning = The catalog is learning what the file names…
import-taught-nothing = The catalog already knew everything the file names.
import-taught = The catalog learned from the file: { $new } { $new ->
    [one] entry
   *[other] entries
} added, { $changed } updated (products, packages and customers it names).
